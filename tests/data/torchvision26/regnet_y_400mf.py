# torchvision 0.21.0 models.regnet_y_400mf(weights=None).eval(), gm.code of torch.fx.symbolic_trace (torch 2.6.0+debian); made by tests/tools/dump-torchvision.py
import torch
import torch.fx

def forward(self, x : torch.Tensor) -> torch.Tensor:
    stem_0 = getattr(self.stem, "0")(x);  x = None
    stem_1 = getattr(self.stem, "1")(stem_0);  stem_0 = None
    stem_2 = getattr(self.stem, "2")(stem_1);  stem_1 = None
    trunk_output_block1_block1_0_proj_0 = getattr(getattr(self.trunk_output.block1, "block1-0").proj, "0")(stem_2)
    trunk_output_block1_block1_0_proj_1 = getattr(getattr(self.trunk_output.block1, "block1-0").proj, "1")(trunk_output_block1_block1_0_proj_0);  trunk_output_block1_block1_0_proj_0 = None
    trunk_output_block1_block1_0_f_a_0 = getattr(getattr(self.trunk_output.block1, "block1-0").f.a, "0")(stem_2);  stem_2 = None
    trunk_output_block1_block1_0_f_a_1 = getattr(getattr(self.trunk_output.block1, "block1-0").f.a, "1")(trunk_output_block1_block1_0_f_a_0);  trunk_output_block1_block1_0_f_a_0 = None
    trunk_output_block1_block1_0_f_a_2 = getattr(getattr(self.trunk_output.block1, "block1-0").f.a, "2")(trunk_output_block1_block1_0_f_a_1);  trunk_output_block1_block1_0_f_a_1 = None
    trunk_output_block1_block1_0_f_b_0 = getattr(getattr(self.trunk_output.block1, "block1-0").f.b, "0")(trunk_output_block1_block1_0_f_a_2);  trunk_output_block1_block1_0_f_a_2 = None
    trunk_output_block1_block1_0_f_b_1 = getattr(getattr(self.trunk_output.block1, "block1-0").f.b, "1")(trunk_output_block1_block1_0_f_b_0);  trunk_output_block1_block1_0_f_b_0 = None
    trunk_output_block1_block1_0_f_b_2 = getattr(getattr(self.trunk_output.block1, "block1-0").f.b, "2")(trunk_output_block1_block1_0_f_b_1);  trunk_output_block1_block1_0_f_b_1 = None
    trunk_output_block1_block1_0_f_se_avgpool = getattr(self.trunk_output.block1, "block1-0").f.se.avgpool(trunk_output_block1_block1_0_f_b_2)
    trunk_output_block1_block1_0_f_se_fc1 = getattr(self.trunk_output.block1, "block1-0").f.se.fc1(trunk_output_block1_block1_0_f_se_avgpool);  trunk_output_block1_block1_0_f_se_avgpool = None
    trunk_output_block1_block1_0_f_se_activation = getattr(self.trunk_output.block1, "block1-0").f.se.activation(trunk_output_block1_block1_0_f_se_fc1);  trunk_output_block1_block1_0_f_se_fc1 = None
    trunk_output_block1_block1_0_f_se_fc2 = getattr(self.trunk_output.block1, "block1-0").f.se.fc2(trunk_output_block1_block1_0_f_se_activation);  trunk_output_block1_block1_0_f_se_activation = None
    trunk_output_block1_block1_0_f_se_scale_activation = getattr(self.trunk_output.block1, "block1-0").f.se.scale_activation(trunk_output_block1_block1_0_f_se_fc2);  trunk_output_block1_block1_0_f_se_fc2 = None
    mul = trunk_output_block1_block1_0_f_se_scale_activation * trunk_output_block1_block1_0_f_b_2;  trunk_output_block1_block1_0_f_se_scale_activation = trunk_output_block1_block1_0_f_b_2 = None
    trunk_output_block1_block1_0_f_c_0 = getattr(getattr(self.trunk_output.block1, "block1-0").f.c, "0")(mul);  mul = None
    trunk_output_block1_block1_0_f_c_1 = getattr(getattr(self.trunk_output.block1, "block1-0").f.c, "1")(trunk_output_block1_block1_0_f_c_0);  trunk_output_block1_block1_0_f_c_0 = None
    add = trunk_output_block1_block1_0_proj_1 + trunk_output_block1_block1_0_f_c_1;  trunk_output_block1_block1_0_proj_1 = trunk_output_block1_block1_0_f_c_1 = None
    trunk_output_block1_block1_0_activation = getattr(self.trunk_output.block1, "block1-0").activation(add);  add = None
    trunk_output_block2_block2_0_proj_0 = getattr(getattr(self.trunk_output.block2, "block2-0").proj, "0")(trunk_output_block1_block1_0_activation)
    trunk_output_block2_block2_0_proj_1 = getattr(getattr(self.trunk_output.block2, "block2-0").proj, "1")(trunk_output_block2_block2_0_proj_0);  trunk_output_block2_block2_0_proj_0 = None
    trunk_output_block2_block2_0_f_a_0 = getattr(getattr(self.trunk_output.block2, "block2-0").f.a, "0")(trunk_output_block1_block1_0_activation);  trunk_output_block1_block1_0_activation = None
    trunk_output_block2_block2_0_f_a_1 = getattr(getattr(self.trunk_output.block2, "block2-0").f.a, "1")(trunk_output_block2_block2_0_f_a_0);  trunk_output_block2_block2_0_f_a_0 = None
    trunk_output_block2_block2_0_f_a_2 = getattr(getattr(self.trunk_output.block2, "block2-0").f.a, "2")(trunk_output_block2_block2_0_f_a_1);  trunk_output_block2_block2_0_f_a_1 = None
    trunk_output_block2_block2_0_f_b_0 = getattr(getattr(self.trunk_output.block2, "block2-0").f.b, "0")(trunk_output_block2_block2_0_f_a_2);  trunk_output_block2_block2_0_f_a_2 = None
    trunk_output_block2_block2_0_f_b_1 = getattr(getattr(self.trunk_output.block2, "block2-0").f.b, "1")(trunk_output_block2_block2_0_f_b_0);  trunk_output_block2_block2_0_f_b_0 = None
    trunk_output_block2_block2_0_f_b_2 = getattr(getattr(self.trunk_output.block2, "block2-0").f.b, "2")(trunk_output_block2_block2_0_f_b_1);  trunk_output_block2_block2_0_f_b_1 = None
    trunk_output_block2_block2_0_f_se_avgpool = getattr(self.trunk_output.block2, "block2-0").f.se.avgpool(trunk_output_block2_block2_0_f_b_2)
    trunk_output_block2_block2_0_f_se_fc1 = getattr(self.trunk_output.block2, "block2-0").f.se.fc1(trunk_output_block2_block2_0_f_se_avgpool);  trunk_output_block2_block2_0_f_se_avgpool = None
    trunk_output_block2_block2_0_f_se_activation = getattr(self.trunk_output.block2, "block2-0").f.se.activation(trunk_output_block2_block2_0_f_se_fc1);  trunk_output_block2_block2_0_f_se_fc1 = None
    trunk_output_block2_block2_0_f_se_fc2 = getattr(self.trunk_output.block2, "block2-0").f.se.fc2(trunk_output_block2_block2_0_f_se_activation);  trunk_output_block2_block2_0_f_se_activation = None
    trunk_output_block2_block2_0_f_se_scale_activation = getattr(self.trunk_output.block2, "block2-0").f.se.scale_activation(trunk_output_block2_block2_0_f_se_fc2);  trunk_output_block2_block2_0_f_se_fc2 = None
    mul_1 = trunk_output_block2_block2_0_f_se_scale_activation * trunk_output_block2_block2_0_f_b_2;  trunk_output_block2_block2_0_f_se_scale_activation = trunk_output_block2_block2_0_f_b_2 = None
    trunk_output_block2_block2_0_f_c_0 = getattr(getattr(self.trunk_output.block2, "block2-0").f.c, "0")(mul_1);  mul_1 = None
    trunk_output_block2_block2_0_f_c_1 = getattr(getattr(self.trunk_output.block2, "block2-0").f.c, "1")(trunk_output_block2_block2_0_f_c_0);  trunk_output_block2_block2_0_f_c_0 = None
    add_1 = trunk_output_block2_block2_0_proj_1 + trunk_output_block2_block2_0_f_c_1;  trunk_output_block2_block2_0_proj_1 = trunk_output_block2_block2_0_f_c_1 = None
    trunk_output_block2_block2_0_activation = getattr(self.trunk_output.block2, "block2-0").activation(add_1);  add_1 = None
    trunk_output_block2_block2_1_f_a_0 = getattr(getattr(self.trunk_output.block2, "block2-1").f.a, "0")(trunk_output_block2_block2_0_activation)
    trunk_output_block2_block2_1_f_a_1 = getattr(getattr(self.trunk_output.block2, "block2-1").f.a, "1")(trunk_output_block2_block2_1_f_a_0);  trunk_output_block2_block2_1_f_a_0 = None
    trunk_output_block2_block2_1_f_a_2 = getattr(getattr(self.trunk_output.block2, "block2-1").f.a, "2")(trunk_output_block2_block2_1_f_a_1);  trunk_output_block2_block2_1_f_a_1 = None
    trunk_output_block2_block2_1_f_b_0 = getattr(getattr(self.trunk_output.block2, "block2-1").f.b, "0")(trunk_output_block2_block2_1_f_a_2);  trunk_output_block2_block2_1_f_a_2 = None
    trunk_output_block2_block2_1_f_b_1 = getattr(getattr(self.trunk_output.block2, "block2-1").f.b, "1")(trunk_output_block2_block2_1_f_b_0);  trunk_output_block2_block2_1_f_b_0 = None
    trunk_output_block2_block2_1_f_b_2 = getattr(getattr(self.trunk_output.block2, "block2-1").f.b, "2")(trunk_output_block2_block2_1_f_b_1);  trunk_output_block2_block2_1_f_b_1 = None
    trunk_output_block2_block2_1_f_se_avgpool = getattr(self.trunk_output.block2, "block2-1").f.se.avgpool(trunk_output_block2_block2_1_f_b_2)
    trunk_output_block2_block2_1_f_se_fc1 = getattr(self.trunk_output.block2, "block2-1").f.se.fc1(trunk_output_block2_block2_1_f_se_avgpool);  trunk_output_block2_block2_1_f_se_avgpool = None
    trunk_output_block2_block2_1_f_se_activation = getattr(self.trunk_output.block2, "block2-1").f.se.activation(trunk_output_block2_block2_1_f_se_fc1);  trunk_output_block2_block2_1_f_se_fc1 = None
    trunk_output_block2_block2_1_f_se_fc2 = getattr(self.trunk_output.block2, "block2-1").f.se.fc2(trunk_output_block2_block2_1_f_se_activation);  trunk_output_block2_block2_1_f_se_activation = None
    trunk_output_block2_block2_1_f_se_scale_activation = getattr(self.trunk_output.block2, "block2-1").f.se.scale_activation(trunk_output_block2_block2_1_f_se_fc2);  trunk_output_block2_block2_1_f_se_fc2 = None
    mul_2 = trunk_output_block2_block2_1_f_se_scale_activation * trunk_output_block2_block2_1_f_b_2;  trunk_output_block2_block2_1_f_se_scale_activation = trunk_output_block2_block2_1_f_b_2 = None
    trunk_output_block2_block2_1_f_c_0 = getattr(getattr(self.trunk_output.block2, "block2-1").f.c, "0")(mul_2);  mul_2 = None
    trunk_output_block2_block2_1_f_c_1 = getattr(getattr(self.trunk_output.block2, "block2-1").f.c, "1")(trunk_output_block2_block2_1_f_c_0);  trunk_output_block2_block2_1_f_c_0 = None
    add_2 = trunk_output_block2_block2_0_activation + trunk_output_block2_block2_1_f_c_1;  trunk_output_block2_block2_0_activation = trunk_output_block2_block2_1_f_c_1 = None
    trunk_output_block2_block2_1_activation = getattr(self.trunk_output.block2, "block2-1").activation(add_2);  add_2 = None
    trunk_output_block2_block2_2_f_a_0 = getattr(getattr(self.trunk_output.block2, "block2-2").f.a, "0")(trunk_output_block2_block2_1_activation)
    trunk_output_block2_block2_2_f_a_1 = getattr(getattr(self.trunk_output.block2, "block2-2").f.a, "1")(trunk_output_block2_block2_2_f_a_0);  trunk_output_block2_block2_2_f_a_0 = None
    trunk_output_block2_block2_2_f_a_2 = getattr(getattr(self.trunk_output.block2, "block2-2").f.a, "2")(trunk_output_block2_block2_2_f_a_1);  trunk_output_block2_block2_2_f_a_1 = None
    trunk_output_block2_block2_2_f_b_0 = getattr(getattr(self.trunk_output.block2, "block2-2").f.b, "0")(trunk_output_block2_block2_2_f_a_2);  trunk_output_block2_block2_2_f_a_2 = None
    trunk_output_block2_block2_2_f_b_1 = getattr(getattr(self.trunk_output.block2, "block2-2").f.b, "1")(trunk_output_block2_block2_2_f_b_0);  trunk_output_block2_block2_2_f_b_0 = None
    trunk_output_block2_block2_2_f_b_2 = getattr(getattr(self.trunk_output.block2, "block2-2").f.b, "2")(trunk_output_block2_block2_2_f_b_1);  trunk_output_block2_block2_2_f_b_1 = None
    trunk_output_block2_block2_2_f_se_avgpool = getattr(self.trunk_output.block2, "block2-2").f.se.avgpool(trunk_output_block2_block2_2_f_b_2)
    trunk_output_block2_block2_2_f_se_fc1 = getattr(self.trunk_output.block2, "block2-2").f.se.fc1(trunk_output_block2_block2_2_f_se_avgpool);  trunk_output_block2_block2_2_f_se_avgpool = None
    trunk_output_block2_block2_2_f_se_activation = getattr(self.trunk_output.block2, "block2-2").f.se.activation(trunk_output_block2_block2_2_f_se_fc1);  trunk_output_block2_block2_2_f_se_fc1 = None
    trunk_output_block2_block2_2_f_se_fc2 = getattr(self.trunk_output.block2, "block2-2").f.se.fc2(trunk_output_block2_block2_2_f_se_activation);  trunk_output_block2_block2_2_f_se_activation = None
    trunk_output_block2_block2_2_f_se_scale_activation = getattr(self.trunk_output.block2, "block2-2").f.se.scale_activation(trunk_output_block2_block2_2_f_se_fc2);  trunk_output_block2_block2_2_f_se_fc2 = None
    mul_3 = trunk_output_block2_block2_2_f_se_scale_activation * trunk_output_block2_block2_2_f_b_2;  trunk_output_block2_block2_2_f_se_scale_activation = trunk_output_block2_block2_2_f_b_2 = None
    trunk_output_block2_block2_2_f_c_0 = getattr(getattr(self.trunk_output.block2, "block2-2").f.c, "0")(mul_3);  mul_3 = None
    trunk_output_block2_block2_2_f_c_1 = getattr(getattr(self.trunk_output.block2, "block2-2").f.c, "1")(trunk_output_block2_block2_2_f_c_0);  trunk_output_block2_block2_2_f_c_0 = None
    add_3 = trunk_output_block2_block2_1_activation + trunk_output_block2_block2_2_f_c_1;  trunk_output_block2_block2_1_activation = trunk_output_block2_block2_2_f_c_1 = None
    trunk_output_block2_block2_2_activation = getattr(self.trunk_output.block2, "block2-2").activation(add_3);  add_3 = None
    trunk_output_block3_block3_0_proj_0 = getattr(getattr(self.trunk_output.block3, "block3-0").proj, "0")(trunk_output_block2_block2_2_activation)
    trunk_output_block3_block3_0_proj_1 = getattr(getattr(self.trunk_output.block3, "block3-0").proj, "1")(trunk_output_block3_block3_0_proj_0);  trunk_output_block3_block3_0_proj_0 = None
    trunk_output_block3_block3_0_f_a_0 = getattr(getattr(self.trunk_output.block3, "block3-0").f.a, "0")(trunk_output_block2_block2_2_activation);  trunk_output_block2_block2_2_activation = None
    trunk_output_block3_block3_0_f_a_1 = getattr(getattr(self.trunk_output.block3, "block3-0").f.a, "1")(trunk_output_block3_block3_0_f_a_0);  trunk_output_block3_block3_0_f_a_0 = None
    trunk_output_block3_block3_0_f_a_2 = getattr(getattr(self.trunk_output.block3, "block3-0").f.a, "2")(trunk_output_block3_block3_0_f_a_1);  trunk_output_block3_block3_0_f_a_1 = None
    trunk_output_block3_block3_0_f_b_0 = getattr(getattr(self.trunk_output.block3, "block3-0").f.b, "0")(trunk_output_block3_block3_0_f_a_2);  trunk_output_block3_block3_0_f_a_2 = None
    trunk_output_block3_block3_0_f_b_1 = getattr(getattr(self.trunk_output.block3, "block3-0").f.b, "1")(trunk_output_block3_block3_0_f_b_0);  trunk_output_block3_block3_0_f_b_0 = None
    trunk_output_block3_block3_0_f_b_2 = getattr(getattr(self.trunk_output.block3, "block3-0").f.b, "2")(trunk_output_block3_block3_0_f_b_1);  trunk_output_block3_block3_0_f_b_1 = None
    trunk_output_block3_block3_0_f_se_avgpool = getattr(self.trunk_output.block3, "block3-0").f.se.avgpool(trunk_output_block3_block3_0_f_b_2)
    trunk_output_block3_block3_0_f_se_fc1 = getattr(self.trunk_output.block3, "block3-0").f.se.fc1(trunk_output_block3_block3_0_f_se_avgpool);  trunk_output_block3_block3_0_f_se_avgpool = None
    trunk_output_block3_block3_0_f_se_activation = getattr(self.trunk_output.block3, "block3-0").f.se.activation(trunk_output_block3_block3_0_f_se_fc1);  trunk_output_block3_block3_0_f_se_fc1 = None
    trunk_output_block3_block3_0_f_se_fc2 = getattr(self.trunk_output.block3, "block3-0").f.se.fc2(trunk_output_block3_block3_0_f_se_activation);  trunk_output_block3_block3_0_f_se_activation = None
    trunk_output_block3_block3_0_f_se_scale_activation = getattr(self.trunk_output.block3, "block3-0").f.se.scale_activation(trunk_output_block3_block3_0_f_se_fc2);  trunk_output_block3_block3_0_f_se_fc2 = None
    mul_4 = trunk_output_block3_block3_0_f_se_scale_activation * trunk_output_block3_block3_0_f_b_2;  trunk_output_block3_block3_0_f_se_scale_activation = trunk_output_block3_block3_0_f_b_2 = None
    trunk_output_block3_block3_0_f_c_0 = getattr(getattr(self.trunk_output.block3, "block3-0").f.c, "0")(mul_4);  mul_4 = None
    trunk_output_block3_block3_0_f_c_1 = getattr(getattr(self.trunk_output.block3, "block3-0").f.c, "1")(trunk_output_block3_block3_0_f_c_0);  trunk_output_block3_block3_0_f_c_0 = None
    add_4 = trunk_output_block3_block3_0_proj_1 + trunk_output_block3_block3_0_f_c_1;  trunk_output_block3_block3_0_proj_1 = trunk_output_block3_block3_0_f_c_1 = None
    trunk_output_block3_block3_0_activation = getattr(self.trunk_output.block3, "block3-0").activation(add_4);  add_4 = None
    trunk_output_block3_block3_1_f_a_0 = getattr(getattr(self.trunk_output.block3, "block3-1").f.a, "0")(trunk_output_block3_block3_0_activation)
    trunk_output_block3_block3_1_f_a_1 = getattr(getattr(self.trunk_output.block3, "block3-1").f.a, "1")(trunk_output_block3_block3_1_f_a_0);  trunk_output_block3_block3_1_f_a_0 = None
    trunk_output_block3_block3_1_f_a_2 = getattr(getattr(self.trunk_output.block3, "block3-1").f.a, "2")(trunk_output_block3_block3_1_f_a_1);  trunk_output_block3_block3_1_f_a_1 = None
    trunk_output_block3_block3_1_f_b_0 = getattr(getattr(self.trunk_output.block3, "block3-1").f.b, "0")(trunk_output_block3_block3_1_f_a_2);  trunk_output_block3_block3_1_f_a_2 = None
    trunk_output_block3_block3_1_f_b_1 = getattr(getattr(self.trunk_output.block3, "block3-1").f.b, "1")(trunk_output_block3_block3_1_f_b_0);  trunk_output_block3_block3_1_f_b_0 = None
    trunk_output_block3_block3_1_f_b_2 = getattr(getattr(self.trunk_output.block3, "block3-1").f.b, "2")(trunk_output_block3_block3_1_f_b_1);  trunk_output_block3_block3_1_f_b_1 = None
    trunk_output_block3_block3_1_f_se_avgpool = getattr(self.trunk_output.block3, "block3-1").f.se.avgpool(trunk_output_block3_block3_1_f_b_2)
    trunk_output_block3_block3_1_f_se_fc1 = getattr(self.trunk_output.block3, "block3-1").f.se.fc1(trunk_output_block3_block3_1_f_se_avgpool);  trunk_output_block3_block3_1_f_se_avgpool = None
    trunk_output_block3_block3_1_f_se_activation = getattr(self.trunk_output.block3, "block3-1").f.se.activation(trunk_output_block3_block3_1_f_se_fc1);  trunk_output_block3_block3_1_f_se_fc1 = None
    trunk_output_block3_block3_1_f_se_fc2 = getattr(self.trunk_output.block3, "block3-1").f.se.fc2(trunk_output_block3_block3_1_f_se_activation);  trunk_output_block3_block3_1_f_se_activation = None
    trunk_output_block3_block3_1_f_se_scale_activation = getattr(self.trunk_output.block3, "block3-1").f.se.scale_activation(trunk_output_block3_block3_1_f_se_fc2);  trunk_output_block3_block3_1_f_se_fc2 = None
    mul_5 = trunk_output_block3_block3_1_f_se_scale_activation * trunk_output_block3_block3_1_f_b_2;  trunk_output_block3_block3_1_f_se_scale_activation = trunk_output_block3_block3_1_f_b_2 = None
    trunk_output_block3_block3_1_f_c_0 = getattr(getattr(self.trunk_output.block3, "block3-1").f.c, "0")(mul_5);  mul_5 = None
    trunk_output_block3_block3_1_f_c_1 = getattr(getattr(self.trunk_output.block3, "block3-1").f.c, "1")(trunk_output_block3_block3_1_f_c_0);  trunk_output_block3_block3_1_f_c_0 = None
    add_5 = trunk_output_block3_block3_0_activation + trunk_output_block3_block3_1_f_c_1;  trunk_output_block3_block3_0_activation = trunk_output_block3_block3_1_f_c_1 = None
    trunk_output_block3_block3_1_activation = getattr(self.trunk_output.block3, "block3-1").activation(add_5);  add_5 = None
    trunk_output_block3_block3_2_f_a_0 = getattr(getattr(self.trunk_output.block3, "block3-2").f.a, "0")(trunk_output_block3_block3_1_activation)
    trunk_output_block3_block3_2_f_a_1 = getattr(getattr(self.trunk_output.block3, "block3-2").f.a, "1")(trunk_output_block3_block3_2_f_a_0);  trunk_output_block3_block3_2_f_a_0 = None
    trunk_output_block3_block3_2_f_a_2 = getattr(getattr(self.trunk_output.block3, "block3-2").f.a, "2")(trunk_output_block3_block3_2_f_a_1);  trunk_output_block3_block3_2_f_a_1 = None
    trunk_output_block3_block3_2_f_b_0 = getattr(getattr(self.trunk_output.block3, "block3-2").f.b, "0")(trunk_output_block3_block3_2_f_a_2);  trunk_output_block3_block3_2_f_a_2 = None
    trunk_output_block3_block3_2_f_b_1 = getattr(getattr(self.trunk_output.block3, "block3-2").f.b, "1")(trunk_output_block3_block3_2_f_b_0);  trunk_output_block3_block3_2_f_b_0 = None
    trunk_output_block3_block3_2_f_b_2 = getattr(getattr(self.trunk_output.block3, "block3-2").f.b, "2")(trunk_output_block3_block3_2_f_b_1);  trunk_output_block3_block3_2_f_b_1 = None
    trunk_output_block3_block3_2_f_se_avgpool = getattr(self.trunk_output.block3, "block3-2").f.se.avgpool(trunk_output_block3_block3_2_f_b_2)
    trunk_output_block3_block3_2_f_se_fc1 = getattr(self.trunk_output.block3, "block3-2").f.se.fc1(trunk_output_block3_block3_2_f_se_avgpool);  trunk_output_block3_block3_2_f_se_avgpool = None
    trunk_output_block3_block3_2_f_se_activation = getattr(self.trunk_output.block3, "block3-2").f.se.activation(trunk_output_block3_block3_2_f_se_fc1);  trunk_output_block3_block3_2_f_se_fc1 = None
    trunk_output_block3_block3_2_f_se_fc2 = getattr(self.trunk_output.block3, "block3-2").f.se.fc2(trunk_output_block3_block3_2_f_se_activation);  trunk_output_block3_block3_2_f_se_activation = None
    trunk_output_block3_block3_2_f_se_scale_activation = getattr(self.trunk_output.block3, "block3-2").f.se.scale_activation(trunk_output_block3_block3_2_f_se_fc2);  trunk_output_block3_block3_2_f_se_fc2 = None
    mul_6 = trunk_output_block3_block3_2_f_se_scale_activation * trunk_output_block3_block3_2_f_b_2;  trunk_output_block3_block3_2_f_se_scale_activation = trunk_output_block3_block3_2_f_b_2 = None
    trunk_output_block3_block3_2_f_c_0 = getattr(getattr(self.trunk_output.block3, "block3-2").f.c, "0")(mul_6);  mul_6 = None
    trunk_output_block3_block3_2_f_c_1 = getattr(getattr(self.trunk_output.block3, "block3-2").f.c, "1")(trunk_output_block3_block3_2_f_c_0);  trunk_output_block3_block3_2_f_c_0 = None
    add_6 = trunk_output_block3_block3_1_activation + trunk_output_block3_block3_2_f_c_1;  trunk_output_block3_block3_1_activation = trunk_output_block3_block3_2_f_c_1 = None
    trunk_output_block3_block3_2_activation = getattr(self.trunk_output.block3, "block3-2").activation(add_6);  add_6 = None
    trunk_output_block3_block3_3_f_a_0 = getattr(getattr(self.trunk_output.block3, "block3-3").f.a, "0")(trunk_output_block3_block3_2_activation)
    trunk_output_block3_block3_3_f_a_1 = getattr(getattr(self.trunk_output.block3, "block3-3").f.a, "1")(trunk_output_block3_block3_3_f_a_0);  trunk_output_block3_block3_3_f_a_0 = None
    trunk_output_block3_block3_3_f_a_2 = getattr(getattr(self.trunk_output.block3, "block3-3").f.a, "2")(trunk_output_block3_block3_3_f_a_1);  trunk_output_block3_block3_3_f_a_1 = None
    trunk_output_block3_block3_3_f_b_0 = getattr(getattr(self.trunk_output.block3, "block3-3").f.b, "0")(trunk_output_block3_block3_3_f_a_2);  trunk_output_block3_block3_3_f_a_2 = None
    trunk_output_block3_block3_3_f_b_1 = getattr(getattr(self.trunk_output.block3, "block3-3").f.b, "1")(trunk_output_block3_block3_3_f_b_0);  trunk_output_block3_block3_3_f_b_0 = None
    trunk_output_block3_block3_3_f_b_2 = getattr(getattr(self.trunk_output.block3, "block3-3").f.b, "2")(trunk_output_block3_block3_3_f_b_1);  trunk_output_block3_block3_3_f_b_1 = None
    trunk_output_block3_block3_3_f_se_avgpool = getattr(self.trunk_output.block3, "block3-3").f.se.avgpool(trunk_output_block3_block3_3_f_b_2)
    trunk_output_block3_block3_3_f_se_fc1 = getattr(self.trunk_output.block3, "block3-3").f.se.fc1(trunk_output_block3_block3_3_f_se_avgpool);  trunk_output_block3_block3_3_f_se_avgpool = None
    trunk_output_block3_block3_3_f_se_activation = getattr(self.trunk_output.block3, "block3-3").f.se.activation(trunk_output_block3_block3_3_f_se_fc1);  trunk_output_block3_block3_3_f_se_fc1 = None
    trunk_output_block3_block3_3_f_se_fc2 = getattr(self.trunk_output.block3, "block3-3").f.se.fc2(trunk_output_block3_block3_3_f_se_activation);  trunk_output_block3_block3_3_f_se_activation = None
    trunk_output_block3_block3_3_f_se_scale_activation = getattr(self.trunk_output.block3, "block3-3").f.se.scale_activation(trunk_output_block3_block3_3_f_se_fc2);  trunk_output_block3_block3_3_f_se_fc2 = None
    mul_7 = trunk_output_block3_block3_3_f_se_scale_activation * trunk_output_block3_block3_3_f_b_2;  trunk_output_block3_block3_3_f_se_scale_activation = trunk_output_block3_block3_3_f_b_2 = None
    trunk_output_block3_block3_3_f_c_0 = getattr(getattr(self.trunk_output.block3, "block3-3").f.c, "0")(mul_7);  mul_7 = None
    trunk_output_block3_block3_3_f_c_1 = getattr(getattr(self.trunk_output.block3, "block3-3").f.c, "1")(trunk_output_block3_block3_3_f_c_0);  trunk_output_block3_block3_3_f_c_0 = None
    add_7 = trunk_output_block3_block3_2_activation + trunk_output_block3_block3_3_f_c_1;  trunk_output_block3_block3_2_activation = trunk_output_block3_block3_3_f_c_1 = None
    trunk_output_block3_block3_3_activation = getattr(self.trunk_output.block3, "block3-3").activation(add_7);  add_7 = None
    trunk_output_block3_block3_4_f_a_0 = getattr(getattr(self.trunk_output.block3, "block3-4").f.a, "0")(trunk_output_block3_block3_3_activation)
    trunk_output_block3_block3_4_f_a_1 = getattr(getattr(self.trunk_output.block3, "block3-4").f.a, "1")(trunk_output_block3_block3_4_f_a_0);  trunk_output_block3_block3_4_f_a_0 = None
    trunk_output_block3_block3_4_f_a_2 = getattr(getattr(self.trunk_output.block3, "block3-4").f.a, "2")(trunk_output_block3_block3_4_f_a_1);  trunk_output_block3_block3_4_f_a_1 = None
    trunk_output_block3_block3_4_f_b_0 = getattr(getattr(self.trunk_output.block3, "block3-4").f.b, "0")(trunk_output_block3_block3_4_f_a_2);  trunk_output_block3_block3_4_f_a_2 = None
    trunk_output_block3_block3_4_f_b_1 = getattr(getattr(self.trunk_output.block3, "block3-4").f.b, "1")(trunk_output_block3_block3_4_f_b_0);  trunk_output_block3_block3_4_f_b_0 = None
    trunk_output_block3_block3_4_f_b_2 = getattr(getattr(self.trunk_output.block3, "block3-4").f.b, "2")(trunk_output_block3_block3_4_f_b_1);  trunk_output_block3_block3_4_f_b_1 = None
    trunk_output_block3_block3_4_f_se_avgpool = getattr(self.trunk_output.block3, "block3-4").f.se.avgpool(trunk_output_block3_block3_4_f_b_2)
    trunk_output_block3_block3_4_f_se_fc1 = getattr(self.trunk_output.block3, "block3-4").f.se.fc1(trunk_output_block3_block3_4_f_se_avgpool);  trunk_output_block3_block3_4_f_se_avgpool = None
    trunk_output_block3_block3_4_f_se_activation = getattr(self.trunk_output.block3, "block3-4").f.se.activation(trunk_output_block3_block3_4_f_se_fc1);  trunk_output_block3_block3_4_f_se_fc1 = None
    trunk_output_block3_block3_4_f_se_fc2 = getattr(self.trunk_output.block3, "block3-4").f.se.fc2(trunk_output_block3_block3_4_f_se_activation);  trunk_output_block3_block3_4_f_se_activation = None
    trunk_output_block3_block3_4_f_se_scale_activation = getattr(self.trunk_output.block3, "block3-4").f.se.scale_activation(trunk_output_block3_block3_4_f_se_fc2);  trunk_output_block3_block3_4_f_se_fc2 = None
    mul_8 = trunk_output_block3_block3_4_f_se_scale_activation * trunk_output_block3_block3_4_f_b_2;  trunk_output_block3_block3_4_f_se_scale_activation = trunk_output_block3_block3_4_f_b_2 = None
    trunk_output_block3_block3_4_f_c_0 = getattr(getattr(self.trunk_output.block3, "block3-4").f.c, "0")(mul_8);  mul_8 = None
    trunk_output_block3_block3_4_f_c_1 = getattr(getattr(self.trunk_output.block3, "block3-4").f.c, "1")(trunk_output_block3_block3_4_f_c_0);  trunk_output_block3_block3_4_f_c_0 = None
    add_8 = trunk_output_block3_block3_3_activation + trunk_output_block3_block3_4_f_c_1;  trunk_output_block3_block3_3_activation = trunk_output_block3_block3_4_f_c_1 = None
    trunk_output_block3_block3_4_activation = getattr(self.trunk_output.block3, "block3-4").activation(add_8);  add_8 = None
    trunk_output_block3_block3_5_f_a_0 = getattr(getattr(self.trunk_output.block3, "block3-5").f.a, "0")(trunk_output_block3_block3_4_activation)
    trunk_output_block3_block3_5_f_a_1 = getattr(getattr(self.trunk_output.block3, "block3-5").f.a, "1")(trunk_output_block3_block3_5_f_a_0);  trunk_output_block3_block3_5_f_a_0 = None
    trunk_output_block3_block3_5_f_a_2 = getattr(getattr(self.trunk_output.block3, "block3-5").f.a, "2")(trunk_output_block3_block3_5_f_a_1);  trunk_output_block3_block3_5_f_a_1 = None
    trunk_output_block3_block3_5_f_b_0 = getattr(getattr(self.trunk_output.block3, "block3-5").f.b, "0")(trunk_output_block3_block3_5_f_a_2);  trunk_output_block3_block3_5_f_a_2 = None
    trunk_output_block3_block3_5_f_b_1 = getattr(getattr(self.trunk_output.block3, "block3-5").f.b, "1")(trunk_output_block3_block3_5_f_b_0);  trunk_output_block3_block3_5_f_b_0 = None
    trunk_output_block3_block3_5_f_b_2 = getattr(getattr(self.trunk_output.block3, "block3-5").f.b, "2")(trunk_output_block3_block3_5_f_b_1);  trunk_output_block3_block3_5_f_b_1 = None
    trunk_output_block3_block3_5_f_se_avgpool = getattr(self.trunk_output.block3, "block3-5").f.se.avgpool(trunk_output_block3_block3_5_f_b_2)
    trunk_output_block3_block3_5_f_se_fc1 = getattr(self.trunk_output.block3, "block3-5").f.se.fc1(trunk_output_block3_block3_5_f_se_avgpool);  trunk_output_block3_block3_5_f_se_avgpool = None
    trunk_output_block3_block3_5_f_se_activation = getattr(self.trunk_output.block3, "block3-5").f.se.activation(trunk_output_block3_block3_5_f_se_fc1);  trunk_output_block3_block3_5_f_se_fc1 = None
    trunk_output_block3_block3_5_f_se_fc2 = getattr(self.trunk_output.block3, "block3-5").f.se.fc2(trunk_output_block3_block3_5_f_se_activation);  trunk_output_block3_block3_5_f_se_activation = None
    trunk_output_block3_block3_5_f_se_scale_activation = getattr(self.trunk_output.block3, "block3-5").f.se.scale_activation(trunk_output_block3_block3_5_f_se_fc2);  trunk_output_block3_block3_5_f_se_fc2 = None
    mul_9 = trunk_output_block3_block3_5_f_se_scale_activation * trunk_output_block3_block3_5_f_b_2;  trunk_output_block3_block3_5_f_se_scale_activation = trunk_output_block3_block3_5_f_b_2 = None
    trunk_output_block3_block3_5_f_c_0 = getattr(getattr(self.trunk_output.block3, "block3-5").f.c, "0")(mul_9);  mul_9 = None
    trunk_output_block3_block3_5_f_c_1 = getattr(getattr(self.trunk_output.block3, "block3-5").f.c, "1")(trunk_output_block3_block3_5_f_c_0);  trunk_output_block3_block3_5_f_c_0 = None
    add_9 = trunk_output_block3_block3_4_activation + trunk_output_block3_block3_5_f_c_1;  trunk_output_block3_block3_4_activation = trunk_output_block3_block3_5_f_c_1 = None
    trunk_output_block3_block3_5_activation = getattr(self.trunk_output.block3, "block3-5").activation(add_9);  add_9 = None
    trunk_output_block4_block4_0_proj_0 = getattr(getattr(self.trunk_output.block4, "block4-0").proj, "0")(trunk_output_block3_block3_5_activation)
    trunk_output_block4_block4_0_proj_1 = getattr(getattr(self.trunk_output.block4, "block4-0").proj, "1")(trunk_output_block4_block4_0_proj_0);  trunk_output_block4_block4_0_proj_0 = None
    trunk_output_block4_block4_0_f_a_0 = getattr(getattr(self.trunk_output.block4, "block4-0").f.a, "0")(trunk_output_block3_block3_5_activation);  trunk_output_block3_block3_5_activation = None
    trunk_output_block4_block4_0_f_a_1 = getattr(getattr(self.trunk_output.block4, "block4-0").f.a, "1")(trunk_output_block4_block4_0_f_a_0);  trunk_output_block4_block4_0_f_a_0 = None
    trunk_output_block4_block4_0_f_a_2 = getattr(getattr(self.trunk_output.block4, "block4-0").f.a, "2")(trunk_output_block4_block4_0_f_a_1);  trunk_output_block4_block4_0_f_a_1 = None
    trunk_output_block4_block4_0_f_b_0 = getattr(getattr(self.trunk_output.block4, "block4-0").f.b, "0")(trunk_output_block4_block4_0_f_a_2);  trunk_output_block4_block4_0_f_a_2 = None
    trunk_output_block4_block4_0_f_b_1 = getattr(getattr(self.trunk_output.block4, "block4-0").f.b, "1")(trunk_output_block4_block4_0_f_b_0);  trunk_output_block4_block4_0_f_b_0 = None
    trunk_output_block4_block4_0_f_b_2 = getattr(getattr(self.trunk_output.block4, "block4-0").f.b, "2")(trunk_output_block4_block4_0_f_b_1);  trunk_output_block4_block4_0_f_b_1 = None
    trunk_output_block4_block4_0_f_se_avgpool = getattr(self.trunk_output.block4, "block4-0").f.se.avgpool(trunk_output_block4_block4_0_f_b_2)
    trunk_output_block4_block4_0_f_se_fc1 = getattr(self.trunk_output.block4, "block4-0").f.se.fc1(trunk_output_block4_block4_0_f_se_avgpool);  trunk_output_block4_block4_0_f_se_avgpool = None
    trunk_output_block4_block4_0_f_se_activation = getattr(self.trunk_output.block4, "block4-0").f.se.activation(trunk_output_block4_block4_0_f_se_fc1);  trunk_output_block4_block4_0_f_se_fc1 = None
    trunk_output_block4_block4_0_f_se_fc2 = getattr(self.trunk_output.block4, "block4-0").f.se.fc2(trunk_output_block4_block4_0_f_se_activation);  trunk_output_block4_block4_0_f_se_activation = None
    trunk_output_block4_block4_0_f_se_scale_activation = getattr(self.trunk_output.block4, "block4-0").f.se.scale_activation(trunk_output_block4_block4_0_f_se_fc2);  trunk_output_block4_block4_0_f_se_fc2 = None
    mul_10 = trunk_output_block4_block4_0_f_se_scale_activation * trunk_output_block4_block4_0_f_b_2;  trunk_output_block4_block4_0_f_se_scale_activation = trunk_output_block4_block4_0_f_b_2 = None
    trunk_output_block4_block4_0_f_c_0 = getattr(getattr(self.trunk_output.block4, "block4-0").f.c, "0")(mul_10);  mul_10 = None
    trunk_output_block4_block4_0_f_c_1 = getattr(getattr(self.trunk_output.block4, "block4-0").f.c, "1")(trunk_output_block4_block4_0_f_c_0);  trunk_output_block4_block4_0_f_c_0 = None
    add_10 = trunk_output_block4_block4_0_proj_1 + trunk_output_block4_block4_0_f_c_1;  trunk_output_block4_block4_0_proj_1 = trunk_output_block4_block4_0_f_c_1 = None
    trunk_output_block4_block4_0_activation = getattr(self.trunk_output.block4, "block4-0").activation(add_10);  add_10 = None
    trunk_output_block4_block4_1_f_a_0 = getattr(getattr(self.trunk_output.block4, "block4-1").f.a, "0")(trunk_output_block4_block4_0_activation)
    trunk_output_block4_block4_1_f_a_1 = getattr(getattr(self.trunk_output.block4, "block4-1").f.a, "1")(trunk_output_block4_block4_1_f_a_0);  trunk_output_block4_block4_1_f_a_0 = None
    trunk_output_block4_block4_1_f_a_2 = getattr(getattr(self.trunk_output.block4, "block4-1").f.a, "2")(trunk_output_block4_block4_1_f_a_1);  trunk_output_block4_block4_1_f_a_1 = None
    trunk_output_block4_block4_1_f_b_0 = getattr(getattr(self.trunk_output.block4, "block4-1").f.b, "0")(trunk_output_block4_block4_1_f_a_2);  trunk_output_block4_block4_1_f_a_2 = None
    trunk_output_block4_block4_1_f_b_1 = getattr(getattr(self.trunk_output.block4, "block4-1").f.b, "1")(trunk_output_block4_block4_1_f_b_0);  trunk_output_block4_block4_1_f_b_0 = None
    trunk_output_block4_block4_1_f_b_2 = getattr(getattr(self.trunk_output.block4, "block4-1").f.b, "2")(trunk_output_block4_block4_1_f_b_1);  trunk_output_block4_block4_1_f_b_1 = None
    trunk_output_block4_block4_1_f_se_avgpool = getattr(self.trunk_output.block4, "block4-1").f.se.avgpool(trunk_output_block4_block4_1_f_b_2)
    trunk_output_block4_block4_1_f_se_fc1 = getattr(self.trunk_output.block4, "block4-1").f.se.fc1(trunk_output_block4_block4_1_f_se_avgpool);  trunk_output_block4_block4_1_f_se_avgpool = None
    trunk_output_block4_block4_1_f_se_activation = getattr(self.trunk_output.block4, "block4-1").f.se.activation(trunk_output_block4_block4_1_f_se_fc1);  trunk_output_block4_block4_1_f_se_fc1 = None
    trunk_output_block4_block4_1_f_se_fc2 = getattr(self.trunk_output.block4, "block4-1").f.se.fc2(trunk_output_block4_block4_1_f_se_activation);  trunk_output_block4_block4_1_f_se_activation = None
    trunk_output_block4_block4_1_f_se_scale_activation = getattr(self.trunk_output.block4, "block4-1").f.se.scale_activation(trunk_output_block4_block4_1_f_se_fc2);  trunk_output_block4_block4_1_f_se_fc2 = None
    mul_11 = trunk_output_block4_block4_1_f_se_scale_activation * trunk_output_block4_block4_1_f_b_2;  trunk_output_block4_block4_1_f_se_scale_activation = trunk_output_block4_block4_1_f_b_2 = None
    trunk_output_block4_block4_1_f_c_0 = getattr(getattr(self.trunk_output.block4, "block4-1").f.c, "0")(mul_11);  mul_11 = None
    trunk_output_block4_block4_1_f_c_1 = getattr(getattr(self.trunk_output.block4, "block4-1").f.c, "1")(trunk_output_block4_block4_1_f_c_0);  trunk_output_block4_block4_1_f_c_0 = None
    add_11 = trunk_output_block4_block4_0_activation + trunk_output_block4_block4_1_f_c_1;  trunk_output_block4_block4_0_activation = trunk_output_block4_block4_1_f_c_1 = None
    trunk_output_block4_block4_1_activation = getattr(self.trunk_output.block4, "block4-1").activation(add_11);  add_11 = None
    trunk_output_block4_block4_2_f_a_0 = getattr(getattr(self.trunk_output.block4, "block4-2").f.a, "0")(trunk_output_block4_block4_1_activation)
    trunk_output_block4_block4_2_f_a_1 = getattr(getattr(self.trunk_output.block4, "block4-2").f.a, "1")(trunk_output_block4_block4_2_f_a_0);  trunk_output_block4_block4_2_f_a_0 = None
    trunk_output_block4_block4_2_f_a_2 = getattr(getattr(self.trunk_output.block4, "block4-2").f.a, "2")(trunk_output_block4_block4_2_f_a_1);  trunk_output_block4_block4_2_f_a_1 = None
    trunk_output_block4_block4_2_f_b_0 = getattr(getattr(self.trunk_output.block4, "block4-2").f.b, "0")(trunk_output_block4_block4_2_f_a_2);  trunk_output_block4_block4_2_f_a_2 = None
    trunk_output_block4_block4_2_f_b_1 = getattr(getattr(self.trunk_output.block4, "block4-2").f.b, "1")(trunk_output_block4_block4_2_f_b_0);  trunk_output_block4_block4_2_f_b_0 = None
    trunk_output_block4_block4_2_f_b_2 = getattr(getattr(self.trunk_output.block4, "block4-2").f.b, "2")(trunk_output_block4_block4_2_f_b_1);  trunk_output_block4_block4_2_f_b_1 = None
    trunk_output_block4_block4_2_f_se_avgpool = getattr(self.trunk_output.block4, "block4-2").f.se.avgpool(trunk_output_block4_block4_2_f_b_2)
    trunk_output_block4_block4_2_f_se_fc1 = getattr(self.trunk_output.block4, "block4-2").f.se.fc1(trunk_output_block4_block4_2_f_se_avgpool);  trunk_output_block4_block4_2_f_se_avgpool = None
    trunk_output_block4_block4_2_f_se_activation = getattr(self.trunk_output.block4, "block4-2").f.se.activation(trunk_output_block4_block4_2_f_se_fc1);  trunk_output_block4_block4_2_f_se_fc1 = None
    trunk_output_block4_block4_2_f_se_fc2 = getattr(self.trunk_output.block4, "block4-2").f.se.fc2(trunk_output_block4_block4_2_f_se_activation);  trunk_output_block4_block4_2_f_se_activation = None
    trunk_output_block4_block4_2_f_se_scale_activation = getattr(self.trunk_output.block4, "block4-2").f.se.scale_activation(trunk_output_block4_block4_2_f_se_fc2);  trunk_output_block4_block4_2_f_se_fc2 = None
    mul_12 = trunk_output_block4_block4_2_f_se_scale_activation * trunk_output_block4_block4_2_f_b_2;  trunk_output_block4_block4_2_f_se_scale_activation = trunk_output_block4_block4_2_f_b_2 = None
    trunk_output_block4_block4_2_f_c_0 = getattr(getattr(self.trunk_output.block4, "block4-2").f.c, "0")(mul_12);  mul_12 = None
    trunk_output_block4_block4_2_f_c_1 = getattr(getattr(self.trunk_output.block4, "block4-2").f.c, "1")(trunk_output_block4_block4_2_f_c_0);  trunk_output_block4_block4_2_f_c_0 = None
    add_12 = trunk_output_block4_block4_1_activation + trunk_output_block4_block4_2_f_c_1;  trunk_output_block4_block4_1_activation = trunk_output_block4_block4_2_f_c_1 = None
    trunk_output_block4_block4_2_activation = getattr(self.trunk_output.block4, "block4-2").activation(add_12);  add_12 = None
    trunk_output_block4_block4_3_f_a_0 = getattr(getattr(self.trunk_output.block4, "block4-3").f.a, "0")(trunk_output_block4_block4_2_activation)
    trunk_output_block4_block4_3_f_a_1 = getattr(getattr(self.trunk_output.block4, "block4-3").f.a, "1")(trunk_output_block4_block4_3_f_a_0);  trunk_output_block4_block4_3_f_a_0 = None
    trunk_output_block4_block4_3_f_a_2 = getattr(getattr(self.trunk_output.block4, "block4-3").f.a, "2")(trunk_output_block4_block4_3_f_a_1);  trunk_output_block4_block4_3_f_a_1 = None
    trunk_output_block4_block4_3_f_b_0 = getattr(getattr(self.trunk_output.block4, "block4-3").f.b, "0")(trunk_output_block4_block4_3_f_a_2);  trunk_output_block4_block4_3_f_a_2 = None
    trunk_output_block4_block4_3_f_b_1 = getattr(getattr(self.trunk_output.block4, "block4-3").f.b, "1")(trunk_output_block4_block4_3_f_b_0);  trunk_output_block4_block4_3_f_b_0 = None
    trunk_output_block4_block4_3_f_b_2 = getattr(getattr(self.trunk_output.block4, "block4-3").f.b, "2")(trunk_output_block4_block4_3_f_b_1);  trunk_output_block4_block4_3_f_b_1 = None
    trunk_output_block4_block4_3_f_se_avgpool = getattr(self.trunk_output.block4, "block4-3").f.se.avgpool(trunk_output_block4_block4_3_f_b_2)
    trunk_output_block4_block4_3_f_se_fc1 = getattr(self.trunk_output.block4, "block4-3").f.se.fc1(trunk_output_block4_block4_3_f_se_avgpool);  trunk_output_block4_block4_3_f_se_avgpool = None
    trunk_output_block4_block4_3_f_se_activation = getattr(self.trunk_output.block4, "block4-3").f.se.activation(trunk_output_block4_block4_3_f_se_fc1);  trunk_output_block4_block4_3_f_se_fc1 = None
    trunk_output_block4_block4_3_f_se_fc2 = getattr(self.trunk_output.block4, "block4-3").f.se.fc2(trunk_output_block4_block4_3_f_se_activation);  trunk_output_block4_block4_3_f_se_activation = None
    trunk_output_block4_block4_3_f_se_scale_activation = getattr(self.trunk_output.block4, "block4-3").f.se.scale_activation(trunk_output_block4_block4_3_f_se_fc2);  trunk_output_block4_block4_3_f_se_fc2 = None
    mul_13 = trunk_output_block4_block4_3_f_se_scale_activation * trunk_output_block4_block4_3_f_b_2;  trunk_output_block4_block4_3_f_se_scale_activation = trunk_output_block4_block4_3_f_b_2 = None
    trunk_output_block4_block4_3_f_c_0 = getattr(getattr(self.trunk_output.block4, "block4-3").f.c, "0")(mul_13);  mul_13 = None
    trunk_output_block4_block4_3_f_c_1 = getattr(getattr(self.trunk_output.block4, "block4-3").f.c, "1")(trunk_output_block4_block4_3_f_c_0);  trunk_output_block4_block4_3_f_c_0 = None
    add_13 = trunk_output_block4_block4_2_activation + trunk_output_block4_block4_3_f_c_1;  trunk_output_block4_block4_2_activation = trunk_output_block4_block4_3_f_c_1 = None
    trunk_output_block4_block4_3_activation = getattr(self.trunk_output.block4, "block4-3").activation(add_13);  add_13 = None
    trunk_output_block4_block4_4_f_a_0 = getattr(getattr(self.trunk_output.block4, "block4-4").f.a, "0")(trunk_output_block4_block4_3_activation)
    trunk_output_block4_block4_4_f_a_1 = getattr(getattr(self.trunk_output.block4, "block4-4").f.a, "1")(trunk_output_block4_block4_4_f_a_0);  trunk_output_block4_block4_4_f_a_0 = None
    trunk_output_block4_block4_4_f_a_2 = getattr(getattr(self.trunk_output.block4, "block4-4").f.a, "2")(trunk_output_block4_block4_4_f_a_1);  trunk_output_block4_block4_4_f_a_1 = None
    trunk_output_block4_block4_4_f_b_0 = getattr(getattr(self.trunk_output.block4, "block4-4").f.b, "0")(trunk_output_block4_block4_4_f_a_2);  trunk_output_block4_block4_4_f_a_2 = None
    trunk_output_block4_block4_4_f_b_1 = getattr(getattr(self.trunk_output.block4, "block4-4").f.b, "1")(trunk_output_block4_block4_4_f_b_0);  trunk_output_block4_block4_4_f_b_0 = None
    trunk_output_block4_block4_4_f_b_2 = getattr(getattr(self.trunk_output.block4, "block4-4").f.b, "2")(trunk_output_block4_block4_4_f_b_1);  trunk_output_block4_block4_4_f_b_1 = None
    trunk_output_block4_block4_4_f_se_avgpool = getattr(self.trunk_output.block4, "block4-4").f.se.avgpool(trunk_output_block4_block4_4_f_b_2)
    trunk_output_block4_block4_4_f_se_fc1 = getattr(self.trunk_output.block4, "block4-4").f.se.fc1(trunk_output_block4_block4_4_f_se_avgpool);  trunk_output_block4_block4_4_f_se_avgpool = None
    trunk_output_block4_block4_4_f_se_activation = getattr(self.trunk_output.block4, "block4-4").f.se.activation(trunk_output_block4_block4_4_f_se_fc1);  trunk_output_block4_block4_4_f_se_fc1 = None
    trunk_output_block4_block4_4_f_se_fc2 = getattr(self.trunk_output.block4, "block4-4").f.se.fc2(trunk_output_block4_block4_4_f_se_activation);  trunk_output_block4_block4_4_f_se_activation = None
    trunk_output_block4_block4_4_f_se_scale_activation = getattr(self.trunk_output.block4, "block4-4").f.se.scale_activation(trunk_output_block4_block4_4_f_se_fc2);  trunk_output_block4_block4_4_f_se_fc2 = None
    mul_14 = trunk_output_block4_block4_4_f_se_scale_activation * trunk_output_block4_block4_4_f_b_2;  trunk_output_block4_block4_4_f_se_scale_activation = trunk_output_block4_block4_4_f_b_2 = None
    trunk_output_block4_block4_4_f_c_0 = getattr(getattr(self.trunk_output.block4, "block4-4").f.c, "0")(mul_14);  mul_14 = None
    trunk_output_block4_block4_4_f_c_1 = getattr(getattr(self.trunk_output.block4, "block4-4").f.c, "1")(trunk_output_block4_block4_4_f_c_0);  trunk_output_block4_block4_4_f_c_0 = None
    add_14 = trunk_output_block4_block4_3_activation + trunk_output_block4_block4_4_f_c_1;  trunk_output_block4_block4_3_activation = trunk_output_block4_block4_4_f_c_1 = None
    trunk_output_block4_block4_4_activation = getattr(self.trunk_output.block4, "block4-4").activation(add_14);  add_14 = None
    trunk_output_block4_block4_5_f_a_0 = getattr(getattr(self.trunk_output.block4, "block4-5").f.a, "0")(trunk_output_block4_block4_4_activation)
    trunk_output_block4_block4_5_f_a_1 = getattr(getattr(self.trunk_output.block4, "block4-5").f.a, "1")(trunk_output_block4_block4_5_f_a_0);  trunk_output_block4_block4_5_f_a_0 = None
    trunk_output_block4_block4_5_f_a_2 = getattr(getattr(self.trunk_output.block4, "block4-5").f.a, "2")(trunk_output_block4_block4_5_f_a_1);  trunk_output_block4_block4_5_f_a_1 = None
    trunk_output_block4_block4_5_f_b_0 = getattr(getattr(self.trunk_output.block4, "block4-5").f.b, "0")(trunk_output_block4_block4_5_f_a_2);  trunk_output_block4_block4_5_f_a_2 = None
    trunk_output_block4_block4_5_f_b_1 = getattr(getattr(self.trunk_output.block4, "block4-5").f.b, "1")(trunk_output_block4_block4_5_f_b_0);  trunk_output_block4_block4_5_f_b_0 = None
    trunk_output_block4_block4_5_f_b_2 = getattr(getattr(self.trunk_output.block4, "block4-5").f.b, "2")(trunk_output_block4_block4_5_f_b_1);  trunk_output_block4_block4_5_f_b_1 = None
    trunk_output_block4_block4_5_f_se_avgpool = getattr(self.trunk_output.block4, "block4-5").f.se.avgpool(trunk_output_block4_block4_5_f_b_2)
    trunk_output_block4_block4_5_f_se_fc1 = getattr(self.trunk_output.block4, "block4-5").f.se.fc1(trunk_output_block4_block4_5_f_se_avgpool);  trunk_output_block4_block4_5_f_se_avgpool = None
    trunk_output_block4_block4_5_f_se_activation = getattr(self.trunk_output.block4, "block4-5").f.se.activation(trunk_output_block4_block4_5_f_se_fc1);  trunk_output_block4_block4_5_f_se_fc1 = None
    trunk_output_block4_block4_5_f_se_fc2 = getattr(self.trunk_output.block4, "block4-5").f.se.fc2(trunk_output_block4_block4_5_f_se_activation);  trunk_output_block4_block4_5_f_se_activation = None
    trunk_output_block4_block4_5_f_se_scale_activation = getattr(self.trunk_output.block4, "block4-5").f.se.scale_activation(trunk_output_block4_block4_5_f_se_fc2);  trunk_output_block4_block4_5_f_se_fc2 = None
    mul_15 = trunk_output_block4_block4_5_f_se_scale_activation * trunk_output_block4_block4_5_f_b_2;  trunk_output_block4_block4_5_f_se_scale_activation = trunk_output_block4_block4_5_f_b_2 = None
    trunk_output_block4_block4_5_f_c_0 = getattr(getattr(self.trunk_output.block4, "block4-5").f.c, "0")(mul_15);  mul_15 = None
    trunk_output_block4_block4_5_f_c_1 = getattr(getattr(self.trunk_output.block4, "block4-5").f.c, "1")(trunk_output_block4_block4_5_f_c_0);  trunk_output_block4_block4_5_f_c_0 = None
    add_15 = trunk_output_block4_block4_4_activation + trunk_output_block4_block4_5_f_c_1;  trunk_output_block4_block4_4_activation = trunk_output_block4_block4_5_f_c_1 = None
    trunk_output_block4_block4_5_activation = getattr(self.trunk_output.block4, "block4-5").activation(add_15);  add_15 = None
    avgpool = self.avgpool(trunk_output_block4_block4_5_activation);  trunk_output_block4_block4_5_activation = None
    flatten = avgpool.flatten(start_dim = 1);  avgpool = None
    fc = self.fc(flatten);  flatten = None
    return fc
