# torchvision 0.21.0 models.mobilenet_v3_small(weights=None).eval(), gm.code of torch.fx.symbolic_trace (torch 2.6.0+debian); made by tests/tools/dump-torchvision.py
import torch
import torch.fx

def forward(self, x : torch.Tensor) -> torch.Tensor:
    features_0_0 = getattr(getattr(self.features, "0"), "0")(x);  x = None
    features_0_1 = getattr(getattr(self.features, "0"), "1")(features_0_0);  features_0_0 = None
    features_0_2 = getattr(getattr(self.features, "0"), "2")(features_0_1);  features_0_1 = None
    features_1_block_0_0 = getattr(getattr(getattr(self.features, "1").block, "0"), "0")(features_0_2);  features_0_2 = None
    features_1_block_0_1 = getattr(getattr(getattr(self.features, "1").block, "0"), "1")(features_1_block_0_0);  features_1_block_0_0 = None
    features_1_block_0_2 = getattr(getattr(getattr(self.features, "1").block, "0"), "2")(features_1_block_0_1);  features_1_block_0_1 = None
    features_1_block_1_avgpool = getattr(getattr(self.features, "1").block, "1").avgpool(features_1_block_0_2)
    features_1_block_1_fc1 = getattr(getattr(self.features, "1").block, "1").fc1(features_1_block_1_avgpool);  features_1_block_1_avgpool = None
    features_1_block_1_activation = getattr(getattr(self.features, "1").block, "1").activation(features_1_block_1_fc1);  features_1_block_1_fc1 = None
    features_1_block_1_fc2 = getattr(getattr(self.features, "1").block, "1").fc2(features_1_block_1_activation);  features_1_block_1_activation = None
    features_1_block_1_scale_activation = getattr(getattr(self.features, "1").block, "1").scale_activation(features_1_block_1_fc2);  features_1_block_1_fc2 = None
    mul = features_1_block_1_scale_activation * features_1_block_0_2;  features_1_block_1_scale_activation = features_1_block_0_2 = None
    features_1_block_2_0 = getattr(getattr(getattr(self.features, "1").block, "2"), "0")(mul);  mul = None
    features_1_block_2_1 = getattr(getattr(getattr(self.features, "1").block, "2"), "1")(features_1_block_2_0);  features_1_block_2_0 = None
    features_2_block_0_0 = getattr(getattr(getattr(self.features, "2").block, "0"), "0")(features_1_block_2_1);  features_1_block_2_1 = None
    features_2_block_0_1 = getattr(getattr(getattr(self.features, "2").block, "0"), "1")(features_2_block_0_0);  features_2_block_0_0 = None
    features_2_block_0_2 = getattr(getattr(getattr(self.features, "2").block, "0"), "2")(features_2_block_0_1);  features_2_block_0_1 = None
    features_2_block_1_0 = getattr(getattr(getattr(self.features, "2").block, "1"), "0")(features_2_block_0_2);  features_2_block_0_2 = None
    features_2_block_1_1 = getattr(getattr(getattr(self.features, "2").block, "1"), "1")(features_2_block_1_0);  features_2_block_1_0 = None
    features_2_block_1_2 = getattr(getattr(getattr(self.features, "2").block, "1"), "2")(features_2_block_1_1);  features_2_block_1_1 = None
    features_2_block_2_0 = getattr(getattr(getattr(self.features, "2").block, "2"), "0")(features_2_block_1_2);  features_2_block_1_2 = None
    features_2_block_2_1 = getattr(getattr(getattr(self.features, "2").block, "2"), "1")(features_2_block_2_0);  features_2_block_2_0 = None
    features_3_block_0_0 = getattr(getattr(getattr(self.features, "3").block, "0"), "0")(features_2_block_2_1)
    features_3_block_0_1 = getattr(getattr(getattr(self.features, "3").block, "0"), "1")(features_3_block_0_0);  features_3_block_0_0 = None
    features_3_block_0_2 = getattr(getattr(getattr(self.features, "3").block, "0"), "2")(features_3_block_0_1);  features_3_block_0_1 = None
    features_3_block_1_0 = getattr(getattr(getattr(self.features, "3").block, "1"), "0")(features_3_block_0_2);  features_3_block_0_2 = None
    features_3_block_1_1 = getattr(getattr(getattr(self.features, "3").block, "1"), "1")(features_3_block_1_0);  features_3_block_1_0 = None
    features_3_block_1_2 = getattr(getattr(getattr(self.features, "3").block, "1"), "2")(features_3_block_1_1);  features_3_block_1_1 = None
    features_3_block_2_0 = getattr(getattr(getattr(self.features, "3").block, "2"), "0")(features_3_block_1_2);  features_3_block_1_2 = None
    features_3_block_2_1 = getattr(getattr(getattr(self.features, "3").block, "2"), "1")(features_3_block_2_0);  features_3_block_2_0 = None
    add = features_3_block_2_1 + features_2_block_2_1;  features_3_block_2_1 = features_2_block_2_1 = None
    features_4_block_0_0 = getattr(getattr(getattr(self.features, "4").block, "0"), "0")(add);  add = None
    features_4_block_0_1 = getattr(getattr(getattr(self.features, "4").block, "0"), "1")(features_4_block_0_0);  features_4_block_0_0 = None
    features_4_block_0_2 = getattr(getattr(getattr(self.features, "4").block, "0"), "2")(features_4_block_0_1);  features_4_block_0_1 = None
    features_4_block_1_0 = getattr(getattr(getattr(self.features, "4").block, "1"), "0")(features_4_block_0_2);  features_4_block_0_2 = None
    features_4_block_1_1 = getattr(getattr(getattr(self.features, "4").block, "1"), "1")(features_4_block_1_0);  features_4_block_1_0 = None
    features_4_block_1_2 = getattr(getattr(getattr(self.features, "4").block, "1"), "2")(features_4_block_1_1);  features_4_block_1_1 = None
    features_4_block_2_avgpool = getattr(getattr(self.features, "4").block, "2").avgpool(features_4_block_1_2)
    features_4_block_2_fc1 = getattr(getattr(self.features, "4").block, "2").fc1(features_4_block_2_avgpool);  features_4_block_2_avgpool = None
    features_4_block_2_activation = getattr(getattr(self.features, "4").block, "2").activation(features_4_block_2_fc1);  features_4_block_2_fc1 = None
    features_4_block_2_fc2 = getattr(getattr(self.features, "4").block, "2").fc2(features_4_block_2_activation);  features_4_block_2_activation = None
    features_4_block_2_scale_activation = getattr(getattr(self.features, "4").block, "2").scale_activation(features_4_block_2_fc2);  features_4_block_2_fc2 = None
    mul_1 = features_4_block_2_scale_activation * features_4_block_1_2;  features_4_block_2_scale_activation = features_4_block_1_2 = None
    features_4_block_3_0 = getattr(getattr(getattr(self.features, "4").block, "3"), "0")(mul_1);  mul_1 = None
    features_4_block_3_1 = getattr(getattr(getattr(self.features, "4").block, "3"), "1")(features_4_block_3_0);  features_4_block_3_0 = None
    features_5_block_0_0 = getattr(getattr(getattr(self.features, "5").block, "0"), "0")(features_4_block_3_1)
    features_5_block_0_1 = getattr(getattr(getattr(self.features, "5").block, "0"), "1")(features_5_block_0_0);  features_5_block_0_0 = None
    features_5_block_0_2 = getattr(getattr(getattr(self.features, "5").block, "0"), "2")(features_5_block_0_1);  features_5_block_0_1 = None
    features_5_block_1_0 = getattr(getattr(getattr(self.features, "5").block, "1"), "0")(features_5_block_0_2);  features_5_block_0_2 = None
    features_5_block_1_1 = getattr(getattr(getattr(self.features, "5").block, "1"), "1")(features_5_block_1_0);  features_5_block_1_0 = None
    features_5_block_1_2 = getattr(getattr(getattr(self.features, "5").block, "1"), "2")(features_5_block_1_1);  features_5_block_1_1 = None
    features_5_block_2_avgpool = getattr(getattr(self.features, "5").block, "2").avgpool(features_5_block_1_2)
    features_5_block_2_fc1 = getattr(getattr(self.features, "5").block, "2").fc1(features_5_block_2_avgpool);  features_5_block_2_avgpool = None
    features_5_block_2_activation = getattr(getattr(self.features, "5").block, "2").activation(features_5_block_2_fc1);  features_5_block_2_fc1 = None
    features_5_block_2_fc2 = getattr(getattr(self.features, "5").block, "2").fc2(features_5_block_2_activation);  features_5_block_2_activation = None
    features_5_block_2_scale_activation = getattr(getattr(self.features, "5").block, "2").scale_activation(features_5_block_2_fc2);  features_5_block_2_fc2 = None
    mul_2 = features_5_block_2_scale_activation * features_5_block_1_2;  features_5_block_2_scale_activation = features_5_block_1_2 = None
    features_5_block_3_0 = getattr(getattr(getattr(self.features, "5").block, "3"), "0")(mul_2);  mul_2 = None
    features_5_block_3_1 = getattr(getattr(getattr(self.features, "5").block, "3"), "1")(features_5_block_3_0);  features_5_block_3_0 = None
    add_1 = features_5_block_3_1 + features_4_block_3_1;  features_5_block_3_1 = features_4_block_3_1 = None
    features_6_block_0_0 = getattr(getattr(getattr(self.features, "6").block, "0"), "0")(add_1)
    features_6_block_0_1 = getattr(getattr(getattr(self.features, "6").block, "0"), "1")(features_6_block_0_0);  features_6_block_0_0 = None
    features_6_block_0_2 = getattr(getattr(getattr(self.features, "6").block, "0"), "2")(features_6_block_0_1);  features_6_block_0_1 = None
    features_6_block_1_0 = getattr(getattr(getattr(self.features, "6").block, "1"), "0")(features_6_block_0_2);  features_6_block_0_2 = None
    features_6_block_1_1 = getattr(getattr(getattr(self.features, "6").block, "1"), "1")(features_6_block_1_0);  features_6_block_1_0 = None
    features_6_block_1_2 = getattr(getattr(getattr(self.features, "6").block, "1"), "2")(features_6_block_1_1);  features_6_block_1_1 = None
    features_6_block_2_avgpool = getattr(getattr(self.features, "6").block, "2").avgpool(features_6_block_1_2)
    features_6_block_2_fc1 = getattr(getattr(self.features, "6").block, "2").fc1(features_6_block_2_avgpool);  features_6_block_2_avgpool = None
    features_6_block_2_activation = getattr(getattr(self.features, "6").block, "2").activation(features_6_block_2_fc1);  features_6_block_2_fc1 = None
    features_6_block_2_fc2 = getattr(getattr(self.features, "6").block, "2").fc2(features_6_block_2_activation);  features_6_block_2_activation = None
    features_6_block_2_scale_activation = getattr(getattr(self.features, "6").block, "2").scale_activation(features_6_block_2_fc2);  features_6_block_2_fc2 = None
    mul_3 = features_6_block_2_scale_activation * features_6_block_1_2;  features_6_block_2_scale_activation = features_6_block_1_2 = None
    features_6_block_3_0 = getattr(getattr(getattr(self.features, "6").block, "3"), "0")(mul_3);  mul_3 = None
    features_6_block_3_1 = getattr(getattr(getattr(self.features, "6").block, "3"), "1")(features_6_block_3_0);  features_6_block_3_0 = None
    add_2 = features_6_block_3_1 + add_1;  features_6_block_3_1 = add_1 = None
    features_7_block_0_0 = getattr(getattr(getattr(self.features, "7").block, "0"), "0")(add_2);  add_2 = None
    features_7_block_0_1 = getattr(getattr(getattr(self.features, "7").block, "0"), "1")(features_7_block_0_0);  features_7_block_0_0 = None
    features_7_block_0_2 = getattr(getattr(getattr(self.features, "7").block, "0"), "2")(features_7_block_0_1);  features_7_block_0_1 = None
    features_7_block_1_0 = getattr(getattr(getattr(self.features, "7").block, "1"), "0")(features_7_block_0_2);  features_7_block_0_2 = None
    features_7_block_1_1 = getattr(getattr(getattr(self.features, "7").block, "1"), "1")(features_7_block_1_0);  features_7_block_1_0 = None
    features_7_block_1_2 = getattr(getattr(getattr(self.features, "7").block, "1"), "2")(features_7_block_1_1);  features_7_block_1_1 = None
    features_7_block_2_avgpool = getattr(getattr(self.features, "7").block, "2").avgpool(features_7_block_1_2)
    features_7_block_2_fc1 = getattr(getattr(self.features, "7").block, "2").fc1(features_7_block_2_avgpool);  features_7_block_2_avgpool = None
    features_7_block_2_activation = getattr(getattr(self.features, "7").block, "2").activation(features_7_block_2_fc1);  features_7_block_2_fc1 = None
    features_7_block_2_fc2 = getattr(getattr(self.features, "7").block, "2").fc2(features_7_block_2_activation);  features_7_block_2_activation = None
    features_7_block_2_scale_activation = getattr(getattr(self.features, "7").block, "2").scale_activation(features_7_block_2_fc2);  features_7_block_2_fc2 = None
    mul_4 = features_7_block_2_scale_activation * features_7_block_1_2;  features_7_block_2_scale_activation = features_7_block_1_2 = None
    features_7_block_3_0 = getattr(getattr(getattr(self.features, "7").block, "3"), "0")(mul_4);  mul_4 = None
    features_7_block_3_1 = getattr(getattr(getattr(self.features, "7").block, "3"), "1")(features_7_block_3_0);  features_7_block_3_0 = None
    features_8_block_0_0 = getattr(getattr(getattr(self.features, "8").block, "0"), "0")(features_7_block_3_1)
    features_8_block_0_1 = getattr(getattr(getattr(self.features, "8").block, "0"), "1")(features_8_block_0_0);  features_8_block_0_0 = None
    features_8_block_0_2 = getattr(getattr(getattr(self.features, "8").block, "0"), "2")(features_8_block_0_1);  features_8_block_0_1 = None
    features_8_block_1_0 = getattr(getattr(getattr(self.features, "8").block, "1"), "0")(features_8_block_0_2);  features_8_block_0_2 = None
    features_8_block_1_1 = getattr(getattr(getattr(self.features, "8").block, "1"), "1")(features_8_block_1_0);  features_8_block_1_0 = None
    features_8_block_1_2 = getattr(getattr(getattr(self.features, "8").block, "1"), "2")(features_8_block_1_1);  features_8_block_1_1 = None
    features_8_block_2_avgpool = getattr(getattr(self.features, "8").block, "2").avgpool(features_8_block_1_2)
    features_8_block_2_fc1 = getattr(getattr(self.features, "8").block, "2").fc1(features_8_block_2_avgpool);  features_8_block_2_avgpool = None
    features_8_block_2_activation = getattr(getattr(self.features, "8").block, "2").activation(features_8_block_2_fc1);  features_8_block_2_fc1 = None
    features_8_block_2_fc2 = getattr(getattr(self.features, "8").block, "2").fc2(features_8_block_2_activation);  features_8_block_2_activation = None
    features_8_block_2_scale_activation = getattr(getattr(self.features, "8").block, "2").scale_activation(features_8_block_2_fc2);  features_8_block_2_fc2 = None
    mul_5 = features_8_block_2_scale_activation * features_8_block_1_2;  features_8_block_2_scale_activation = features_8_block_1_2 = None
    features_8_block_3_0 = getattr(getattr(getattr(self.features, "8").block, "3"), "0")(mul_5);  mul_5 = None
    features_8_block_3_1 = getattr(getattr(getattr(self.features, "8").block, "3"), "1")(features_8_block_3_0);  features_8_block_3_0 = None
    add_3 = features_8_block_3_1 + features_7_block_3_1;  features_8_block_3_1 = features_7_block_3_1 = None
    features_9_block_0_0 = getattr(getattr(getattr(self.features, "9").block, "0"), "0")(add_3);  add_3 = None
    features_9_block_0_1 = getattr(getattr(getattr(self.features, "9").block, "0"), "1")(features_9_block_0_0);  features_9_block_0_0 = None
    features_9_block_0_2 = getattr(getattr(getattr(self.features, "9").block, "0"), "2")(features_9_block_0_1);  features_9_block_0_1 = None
    features_9_block_1_0 = getattr(getattr(getattr(self.features, "9").block, "1"), "0")(features_9_block_0_2);  features_9_block_0_2 = None
    features_9_block_1_1 = getattr(getattr(getattr(self.features, "9").block, "1"), "1")(features_9_block_1_0);  features_9_block_1_0 = None
    features_9_block_1_2 = getattr(getattr(getattr(self.features, "9").block, "1"), "2")(features_9_block_1_1);  features_9_block_1_1 = None
    features_9_block_2_avgpool = getattr(getattr(self.features, "9").block, "2").avgpool(features_9_block_1_2)
    features_9_block_2_fc1 = getattr(getattr(self.features, "9").block, "2").fc1(features_9_block_2_avgpool);  features_9_block_2_avgpool = None
    features_9_block_2_activation = getattr(getattr(self.features, "9").block, "2").activation(features_9_block_2_fc1);  features_9_block_2_fc1 = None
    features_9_block_2_fc2 = getattr(getattr(self.features, "9").block, "2").fc2(features_9_block_2_activation);  features_9_block_2_activation = None
    features_9_block_2_scale_activation = getattr(getattr(self.features, "9").block, "2").scale_activation(features_9_block_2_fc2);  features_9_block_2_fc2 = None
    mul_6 = features_9_block_2_scale_activation * features_9_block_1_2;  features_9_block_2_scale_activation = features_9_block_1_2 = None
    features_9_block_3_0 = getattr(getattr(getattr(self.features, "9").block, "3"), "0")(mul_6);  mul_6 = None
    features_9_block_3_1 = getattr(getattr(getattr(self.features, "9").block, "3"), "1")(features_9_block_3_0);  features_9_block_3_0 = None
    features_10_block_0_0 = getattr(getattr(getattr(self.features, "10").block, "0"), "0")(features_9_block_3_1)
    features_10_block_0_1 = getattr(getattr(getattr(self.features, "10").block, "0"), "1")(features_10_block_0_0);  features_10_block_0_0 = None
    features_10_block_0_2 = getattr(getattr(getattr(self.features, "10").block, "0"), "2")(features_10_block_0_1);  features_10_block_0_1 = None
    features_10_block_1_0 = getattr(getattr(getattr(self.features, "10").block, "1"), "0")(features_10_block_0_2);  features_10_block_0_2 = None
    features_10_block_1_1 = getattr(getattr(getattr(self.features, "10").block, "1"), "1")(features_10_block_1_0);  features_10_block_1_0 = None
    features_10_block_1_2 = getattr(getattr(getattr(self.features, "10").block, "1"), "2")(features_10_block_1_1);  features_10_block_1_1 = None
    features_10_block_2_avgpool = getattr(getattr(self.features, "10").block, "2").avgpool(features_10_block_1_2)
    features_10_block_2_fc1 = getattr(getattr(self.features, "10").block, "2").fc1(features_10_block_2_avgpool);  features_10_block_2_avgpool = None
    features_10_block_2_activation = getattr(getattr(self.features, "10").block, "2").activation(features_10_block_2_fc1);  features_10_block_2_fc1 = None
    features_10_block_2_fc2 = getattr(getattr(self.features, "10").block, "2").fc2(features_10_block_2_activation);  features_10_block_2_activation = None
    features_10_block_2_scale_activation = getattr(getattr(self.features, "10").block, "2").scale_activation(features_10_block_2_fc2);  features_10_block_2_fc2 = None
    mul_7 = features_10_block_2_scale_activation * features_10_block_1_2;  features_10_block_2_scale_activation = features_10_block_1_2 = None
    features_10_block_3_0 = getattr(getattr(getattr(self.features, "10").block, "3"), "0")(mul_7);  mul_7 = None
    features_10_block_3_1 = getattr(getattr(getattr(self.features, "10").block, "3"), "1")(features_10_block_3_0);  features_10_block_3_0 = None
    add_4 = features_10_block_3_1 + features_9_block_3_1;  features_10_block_3_1 = features_9_block_3_1 = None
    features_11_block_0_0 = getattr(getattr(getattr(self.features, "11").block, "0"), "0")(add_4)
    features_11_block_0_1 = getattr(getattr(getattr(self.features, "11").block, "0"), "1")(features_11_block_0_0);  features_11_block_0_0 = None
    features_11_block_0_2 = getattr(getattr(getattr(self.features, "11").block, "0"), "2")(features_11_block_0_1);  features_11_block_0_1 = None
    features_11_block_1_0 = getattr(getattr(getattr(self.features, "11").block, "1"), "0")(features_11_block_0_2);  features_11_block_0_2 = None
    features_11_block_1_1 = getattr(getattr(getattr(self.features, "11").block, "1"), "1")(features_11_block_1_0);  features_11_block_1_0 = None
    features_11_block_1_2 = getattr(getattr(getattr(self.features, "11").block, "1"), "2")(features_11_block_1_1);  features_11_block_1_1 = None
    features_11_block_2_avgpool = getattr(getattr(self.features, "11").block, "2").avgpool(features_11_block_1_2)
    features_11_block_2_fc1 = getattr(getattr(self.features, "11").block, "2").fc1(features_11_block_2_avgpool);  features_11_block_2_avgpool = None
    features_11_block_2_activation = getattr(getattr(self.features, "11").block, "2").activation(features_11_block_2_fc1);  features_11_block_2_fc1 = None
    features_11_block_2_fc2 = getattr(getattr(self.features, "11").block, "2").fc2(features_11_block_2_activation);  features_11_block_2_activation = None
    features_11_block_2_scale_activation = getattr(getattr(self.features, "11").block, "2").scale_activation(features_11_block_2_fc2);  features_11_block_2_fc2 = None
    mul_8 = features_11_block_2_scale_activation * features_11_block_1_2;  features_11_block_2_scale_activation = features_11_block_1_2 = None
    features_11_block_3_0 = getattr(getattr(getattr(self.features, "11").block, "3"), "0")(mul_8);  mul_8 = None
    features_11_block_3_1 = getattr(getattr(getattr(self.features, "11").block, "3"), "1")(features_11_block_3_0);  features_11_block_3_0 = None
    add_5 = features_11_block_3_1 + add_4;  features_11_block_3_1 = add_4 = None
    features_12_0 = getattr(getattr(self.features, "12"), "0")(add_5);  add_5 = None
    features_12_1 = getattr(getattr(self.features, "12"), "1")(features_12_0);  features_12_0 = None
    features_12_2 = getattr(getattr(self.features, "12"), "2")(features_12_1);  features_12_1 = None
    avgpool = self.avgpool(features_12_2);  features_12_2 = None
    flatten = torch.flatten(avgpool, 1);  avgpool = None
    classifier_0 = getattr(self.classifier, "0")(flatten);  flatten = None
    classifier_1 = getattr(self.classifier, "1")(classifier_0);  classifier_0 = None
    classifier_2 = getattr(self.classifier, "2")(classifier_1);  classifier_1 = None
    classifier_3 = getattr(self.classifier, "3")(classifier_2);  classifier_2 = None
    return classifier_3
