# torchvision 0.21.0 models.convnext_tiny(weights=None).eval(), gm.code of torch.fx.symbolic_trace (torch 2.6.0+debian); made by tests/tools/dump-torchvision.py
import torch
import torch.fx
from torchvision.ops.stochastic_depth import stochastic_depth as torchvision_ops_stochastic_depth_stochastic_depth
torch.fx._symbolic_trace.wrap("torchvision_ops_stochastic_depth_stochastic_depth")

def forward(self, x : torch.Tensor) -> torch.Tensor:
    features_0_0 = getattr(getattr(self.features, "0"), "0")(x);  x = None
    permute = features_0_0.permute(0, 2, 3, 1);  features_0_0 = None
    features_0_1_weight = getattr(getattr(self.features, "0"), "1").weight
    features_0_1_bias = getattr(getattr(self.features, "0"), "1").bias
    layer_norm = torch.nn.functional.layer_norm(permute, (96,), weight = features_0_1_weight, bias = features_0_1_bias, eps = 1e-06);  permute = features_0_1_weight = features_0_1_bias = None
    permute_1 = layer_norm.permute(0, 3, 1, 2);  layer_norm = None
    features_1_0_layer_scale = getattr(getattr(self.features, "1"), "0").layer_scale
    features_1_0_block_0 = getattr(getattr(getattr(self.features, "1"), "0").block, "0")(permute_1)
    permute_2 = torch.permute(features_1_0_block_0, [0, 2, 3, 1]);  features_1_0_block_0 = None
    features_1_0_block_2 = getattr(getattr(getattr(self.features, "1"), "0").block, "2")(permute_2);  permute_2 = None
    features_1_0_block_3 = getattr(getattr(getattr(self.features, "1"), "0").block, "3")(features_1_0_block_2);  features_1_0_block_2 = None
    features_1_0_block_4 = getattr(getattr(getattr(self.features, "1"), "0").block, "4")(features_1_0_block_3);  features_1_0_block_3 = None
    features_1_0_block_5 = getattr(getattr(getattr(self.features, "1"), "0").block, "5")(features_1_0_block_4);  features_1_0_block_4 = None
    permute_3 = torch.permute(features_1_0_block_5, [0, 3, 1, 2]);  features_1_0_block_5 = None
    mul = features_1_0_layer_scale * permute_3;  features_1_0_layer_scale = permute_3 = None
    stochastic_depth = torchvision_ops_stochastic_depth_stochastic_depth(mul, 0.0, 'row', False);  mul = None
    add = stochastic_depth + permute_1;  stochastic_depth = permute_1 = None
    features_1_1_layer_scale = getattr(getattr(self.features, "1"), "1").layer_scale
    features_1_1_block_0 = getattr(getattr(getattr(self.features, "1"), "1").block, "0")(add)
    permute_4 = torch.permute(features_1_1_block_0, [0, 2, 3, 1]);  features_1_1_block_0 = None
    features_1_1_block_2 = getattr(getattr(getattr(self.features, "1"), "1").block, "2")(permute_4);  permute_4 = None
    features_1_1_block_3 = getattr(getattr(getattr(self.features, "1"), "1").block, "3")(features_1_1_block_2);  features_1_1_block_2 = None
    features_1_1_block_4 = getattr(getattr(getattr(self.features, "1"), "1").block, "4")(features_1_1_block_3);  features_1_1_block_3 = None
    features_1_1_block_5 = getattr(getattr(getattr(self.features, "1"), "1").block, "5")(features_1_1_block_4);  features_1_1_block_4 = None
    permute_5 = torch.permute(features_1_1_block_5, [0, 3, 1, 2]);  features_1_1_block_5 = None
    mul_1 = features_1_1_layer_scale * permute_5;  features_1_1_layer_scale = permute_5 = None
    stochastic_depth_1 = torchvision_ops_stochastic_depth_stochastic_depth(mul_1, 0.0058823529411764705, 'row', False);  mul_1 = None
    add_1 = stochastic_depth_1 + add;  stochastic_depth_1 = add = None
    features_1_2_layer_scale = getattr(getattr(self.features, "1"), "2").layer_scale
    features_1_2_block_0 = getattr(getattr(getattr(self.features, "1"), "2").block, "0")(add_1)
    permute_6 = torch.permute(features_1_2_block_0, [0, 2, 3, 1]);  features_1_2_block_0 = None
    features_1_2_block_2 = getattr(getattr(getattr(self.features, "1"), "2").block, "2")(permute_6);  permute_6 = None
    features_1_2_block_3 = getattr(getattr(getattr(self.features, "1"), "2").block, "3")(features_1_2_block_2);  features_1_2_block_2 = None
    features_1_2_block_4 = getattr(getattr(getattr(self.features, "1"), "2").block, "4")(features_1_2_block_3);  features_1_2_block_3 = None
    features_1_2_block_5 = getattr(getattr(getattr(self.features, "1"), "2").block, "5")(features_1_2_block_4);  features_1_2_block_4 = None
    permute_7 = torch.permute(features_1_2_block_5, [0, 3, 1, 2]);  features_1_2_block_5 = None
    mul_2 = features_1_2_layer_scale * permute_7;  features_1_2_layer_scale = permute_7 = None
    stochastic_depth_2 = torchvision_ops_stochastic_depth_stochastic_depth(mul_2, 0.011764705882352941, 'row', False);  mul_2 = None
    add_2 = stochastic_depth_2 + add_1;  stochastic_depth_2 = add_1 = None
    permute_8 = add_2.permute(0, 2, 3, 1);  add_2 = None
    features_2_0_weight = getattr(getattr(self.features, "2"), "0").weight
    features_2_0_bias = getattr(getattr(self.features, "2"), "0").bias
    layer_norm_1 = torch.nn.functional.layer_norm(permute_8, (96,), weight = features_2_0_weight, bias = features_2_0_bias, eps = 1e-06);  permute_8 = features_2_0_weight = features_2_0_bias = None
    permute_9 = layer_norm_1.permute(0, 3, 1, 2);  layer_norm_1 = None
    features_2_1 = getattr(getattr(self.features, "2"), "1")(permute_9);  permute_9 = None
    features_3_0_layer_scale = getattr(getattr(self.features, "3"), "0").layer_scale
    features_3_0_block_0 = getattr(getattr(getattr(self.features, "3"), "0").block, "0")(features_2_1)
    permute_10 = torch.permute(features_3_0_block_0, [0, 2, 3, 1]);  features_3_0_block_0 = None
    features_3_0_block_2 = getattr(getattr(getattr(self.features, "3"), "0").block, "2")(permute_10);  permute_10 = None
    features_3_0_block_3 = getattr(getattr(getattr(self.features, "3"), "0").block, "3")(features_3_0_block_2);  features_3_0_block_2 = None
    features_3_0_block_4 = getattr(getattr(getattr(self.features, "3"), "0").block, "4")(features_3_0_block_3);  features_3_0_block_3 = None
    features_3_0_block_5 = getattr(getattr(getattr(self.features, "3"), "0").block, "5")(features_3_0_block_4);  features_3_0_block_4 = None
    permute_11 = torch.permute(features_3_0_block_5, [0, 3, 1, 2]);  features_3_0_block_5 = None
    mul_3 = features_3_0_layer_scale * permute_11;  features_3_0_layer_scale = permute_11 = None
    stochastic_depth_3 = torchvision_ops_stochastic_depth_stochastic_depth(mul_3, 0.017647058823529415, 'row', False);  mul_3 = None
    add_3 = stochastic_depth_3 + features_2_1;  stochastic_depth_3 = features_2_1 = None
    features_3_1_layer_scale = getattr(getattr(self.features, "3"), "1").layer_scale
    features_3_1_block_0 = getattr(getattr(getattr(self.features, "3"), "1").block, "0")(add_3)
    permute_12 = torch.permute(features_3_1_block_0, [0, 2, 3, 1]);  features_3_1_block_0 = None
    features_3_1_block_2 = getattr(getattr(getattr(self.features, "3"), "1").block, "2")(permute_12);  permute_12 = None
    features_3_1_block_3 = getattr(getattr(getattr(self.features, "3"), "1").block, "3")(features_3_1_block_2);  features_3_1_block_2 = None
    features_3_1_block_4 = getattr(getattr(getattr(self.features, "3"), "1").block, "4")(features_3_1_block_3);  features_3_1_block_3 = None
    features_3_1_block_5 = getattr(getattr(getattr(self.features, "3"), "1").block, "5")(features_3_1_block_4);  features_3_1_block_4 = None
    permute_13 = torch.permute(features_3_1_block_5, [0, 3, 1, 2]);  features_3_1_block_5 = None
    mul_4 = features_3_1_layer_scale * permute_13;  features_3_1_layer_scale = permute_13 = None
    stochastic_depth_4 = torchvision_ops_stochastic_depth_stochastic_depth(mul_4, 0.023529411764705882, 'row', False);  mul_4 = None
    add_4 = stochastic_depth_4 + add_3;  stochastic_depth_4 = add_3 = None
    features_3_2_layer_scale = getattr(getattr(self.features, "3"), "2").layer_scale
    features_3_2_block_0 = getattr(getattr(getattr(self.features, "3"), "2").block, "0")(add_4)
    permute_14 = torch.permute(features_3_2_block_0, [0, 2, 3, 1]);  features_3_2_block_0 = None
    features_3_2_block_2 = getattr(getattr(getattr(self.features, "3"), "2").block, "2")(permute_14);  permute_14 = None
    features_3_2_block_3 = getattr(getattr(getattr(self.features, "3"), "2").block, "3")(features_3_2_block_2);  features_3_2_block_2 = None
    features_3_2_block_4 = getattr(getattr(getattr(self.features, "3"), "2").block, "4")(features_3_2_block_3);  features_3_2_block_3 = None
    features_3_2_block_5 = getattr(getattr(getattr(self.features, "3"), "2").block, "5")(features_3_2_block_4);  features_3_2_block_4 = None
    permute_15 = torch.permute(features_3_2_block_5, [0, 3, 1, 2]);  features_3_2_block_5 = None
    mul_5 = features_3_2_layer_scale * permute_15;  features_3_2_layer_scale = permute_15 = None
    stochastic_depth_5 = torchvision_ops_stochastic_depth_stochastic_depth(mul_5, 0.029411764705882353, 'row', False);  mul_5 = None
    add_5 = stochastic_depth_5 + add_4;  stochastic_depth_5 = add_4 = None
    permute_16 = add_5.permute(0, 2, 3, 1);  add_5 = None
    features_4_0_weight = getattr(getattr(self.features, "4"), "0").weight
    features_4_0_bias = getattr(getattr(self.features, "4"), "0").bias
    layer_norm_2 = torch.nn.functional.layer_norm(permute_16, (192,), weight = features_4_0_weight, bias = features_4_0_bias, eps = 1e-06);  permute_16 = features_4_0_weight = features_4_0_bias = None
    permute_17 = layer_norm_2.permute(0, 3, 1, 2);  layer_norm_2 = None
    features_4_1 = getattr(getattr(self.features, "4"), "1")(permute_17);  permute_17 = None
    features_5_0_layer_scale = getattr(getattr(self.features, "5"), "0").layer_scale
    features_5_0_block_0 = getattr(getattr(getattr(self.features, "5"), "0").block, "0")(features_4_1)
    permute_18 = torch.permute(features_5_0_block_0, [0, 2, 3, 1]);  features_5_0_block_0 = None
    features_5_0_block_2 = getattr(getattr(getattr(self.features, "5"), "0").block, "2")(permute_18);  permute_18 = None
    features_5_0_block_3 = getattr(getattr(getattr(self.features, "5"), "0").block, "3")(features_5_0_block_2);  features_5_0_block_2 = None
    features_5_0_block_4 = getattr(getattr(getattr(self.features, "5"), "0").block, "4")(features_5_0_block_3);  features_5_0_block_3 = None
    features_5_0_block_5 = getattr(getattr(getattr(self.features, "5"), "0").block, "5")(features_5_0_block_4);  features_5_0_block_4 = None
    permute_19 = torch.permute(features_5_0_block_5, [0, 3, 1, 2]);  features_5_0_block_5 = None
    mul_6 = features_5_0_layer_scale * permute_19;  features_5_0_layer_scale = permute_19 = None
    stochastic_depth_6 = torchvision_ops_stochastic_depth_stochastic_depth(mul_6, 0.03529411764705883, 'row', False);  mul_6 = None
    add_6 = stochastic_depth_6 + features_4_1;  stochastic_depth_6 = features_4_1 = None
    features_5_1_layer_scale = getattr(getattr(self.features, "5"), "1").layer_scale
    features_5_1_block_0 = getattr(getattr(getattr(self.features, "5"), "1").block, "0")(add_6)
    permute_20 = torch.permute(features_5_1_block_0, [0, 2, 3, 1]);  features_5_1_block_0 = None
    features_5_1_block_2 = getattr(getattr(getattr(self.features, "5"), "1").block, "2")(permute_20);  permute_20 = None
    features_5_1_block_3 = getattr(getattr(getattr(self.features, "5"), "1").block, "3")(features_5_1_block_2);  features_5_1_block_2 = None
    features_5_1_block_4 = getattr(getattr(getattr(self.features, "5"), "1").block, "4")(features_5_1_block_3);  features_5_1_block_3 = None
    features_5_1_block_5 = getattr(getattr(getattr(self.features, "5"), "1").block, "5")(features_5_1_block_4);  features_5_1_block_4 = None
    permute_21 = torch.permute(features_5_1_block_5, [0, 3, 1, 2]);  features_5_1_block_5 = None
    mul_7 = features_5_1_layer_scale * permute_21;  features_5_1_layer_scale = permute_21 = None
    stochastic_depth_7 = torchvision_ops_stochastic_depth_stochastic_depth(mul_7, 0.0411764705882353, 'row', False);  mul_7 = None
    add_7 = stochastic_depth_7 + add_6;  stochastic_depth_7 = add_6 = None
    features_5_2_layer_scale = getattr(getattr(self.features, "5"), "2").layer_scale
    features_5_2_block_0 = getattr(getattr(getattr(self.features, "5"), "2").block, "0")(add_7)
    permute_22 = torch.permute(features_5_2_block_0, [0, 2, 3, 1]);  features_5_2_block_0 = None
    features_5_2_block_2 = getattr(getattr(getattr(self.features, "5"), "2").block, "2")(permute_22);  permute_22 = None
    features_5_2_block_3 = getattr(getattr(getattr(self.features, "5"), "2").block, "3")(features_5_2_block_2);  features_5_2_block_2 = None
    features_5_2_block_4 = getattr(getattr(getattr(self.features, "5"), "2").block, "4")(features_5_2_block_3);  features_5_2_block_3 = None
    features_5_2_block_5 = getattr(getattr(getattr(self.features, "5"), "2").block, "5")(features_5_2_block_4);  features_5_2_block_4 = None
    permute_23 = torch.permute(features_5_2_block_5, [0, 3, 1, 2]);  features_5_2_block_5 = None
    mul_8 = features_5_2_layer_scale * permute_23;  features_5_2_layer_scale = permute_23 = None
    stochastic_depth_8 = torchvision_ops_stochastic_depth_stochastic_depth(mul_8, 0.047058823529411764, 'row', False);  mul_8 = None
    add_8 = stochastic_depth_8 + add_7;  stochastic_depth_8 = add_7 = None
    features_5_3_layer_scale = getattr(getattr(self.features, "5"), "3").layer_scale
    features_5_3_block_0 = getattr(getattr(getattr(self.features, "5"), "3").block, "0")(add_8)
    permute_24 = torch.permute(features_5_3_block_0, [0, 2, 3, 1]);  features_5_3_block_0 = None
    features_5_3_block_2 = getattr(getattr(getattr(self.features, "5"), "3").block, "2")(permute_24);  permute_24 = None
    features_5_3_block_3 = getattr(getattr(getattr(self.features, "5"), "3").block, "3")(features_5_3_block_2);  features_5_3_block_2 = None
    features_5_3_block_4 = getattr(getattr(getattr(self.features, "5"), "3").block, "4")(features_5_3_block_3);  features_5_3_block_3 = None
    features_5_3_block_5 = getattr(getattr(getattr(self.features, "5"), "3").block, "5")(features_5_3_block_4);  features_5_3_block_4 = None
    permute_25 = torch.permute(features_5_3_block_5, [0, 3, 1, 2]);  features_5_3_block_5 = None
    mul_9 = features_5_3_layer_scale * permute_25;  features_5_3_layer_scale = permute_25 = None
    stochastic_depth_9 = torchvision_ops_stochastic_depth_stochastic_depth(mul_9, 0.052941176470588235, 'row', False);  mul_9 = None
    add_9 = stochastic_depth_9 + add_8;  stochastic_depth_9 = add_8 = None
    features_5_4_layer_scale = getattr(getattr(self.features, "5"), "4").layer_scale
    features_5_4_block_0 = getattr(getattr(getattr(self.features, "5"), "4").block, "0")(add_9)
    permute_26 = torch.permute(features_5_4_block_0, [0, 2, 3, 1]);  features_5_4_block_0 = None
    features_5_4_block_2 = getattr(getattr(getattr(self.features, "5"), "4").block, "2")(permute_26);  permute_26 = None
    features_5_4_block_3 = getattr(getattr(getattr(self.features, "5"), "4").block, "3")(features_5_4_block_2);  features_5_4_block_2 = None
    features_5_4_block_4 = getattr(getattr(getattr(self.features, "5"), "4").block, "4")(features_5_4_block_3);  features_5_4_block_3 = None
    features_5_4_block_5 = getattr(getattr(getattr(self.features, "5"), "4").block, "5")(features_5_4_block_4);  features_5_4_block_4 = None
    permute_27 = torch.permute(features_5_4_block_5, [0, 3, 1, 2]);  features_5_4_block_5 = None
    mul_10 = features_5_4_layer_scale * permute_27;  features_5_4_layer_scale = permute_27 = None
    stochastic_depth_10 = torchvision_ops_stochastic_depth_stochastic_depth(mul_10, 0.058823529411764705, 'row', False);  mul_10 = None
    add_10 = stochastic_depth_10 + add_9;  stochastic_depth_10 = add_9 = None
    features_5_5_layer_scale = getattr(getattr(self.features, "5"), "5").layer_scale
    features_5_5_block_0 = getattr(getattr(getattr(self.features, "5"), "5").block, "0")(add_10)
    permute_28 = torch.permute(features_5_5_block_0, [0, 2, 3, 1]);  features_5_5_block_0 = None
    features_5_5_block_2 = getattr(getattr(getattr(self.features, "5"), "5").block, "2")(permute_28);  permute_28 = None
    features_5_5_block_3 = getattr(getattr(getattr(self.features, "5"), "5").block, "3")(features_5_5_block_2);  features_5_5_block_2 = None
    features_5_5_block_4 = getattr(getattr(getattr(self.features, "5"), "5").block, "4")(features_5_5_block_3);  features_5_5_block_3 = None
    features_5_5_block_5 = getattr(getattr(getattr(self.features, "5"), "5").block, "5")(features_5_5_block_4);  features_5_5_block_4 = None
    permute_29 = torch.permute(features_5_5_block_5, [0, 3, 1, 2]);  features_5_5_block_5 = None
    mul_11 = features_5_5_layer_scale * permute_29;  features_5_5_layer_scale = permute_29 = None
    stochastic_depth_11 = torchvision_ops_stochastic_depth_stochastic_depth(mul_11, 0.06470588235294118, 'row', False);  mul_11 = None
    add_11 = stochastic_depth_11 + add_10;  stochastic_depth_11 = add_10 = None
    features_5_6_layer_scale = getattr(getattr(self.features, "5"), "6").layer_scale
    features_5_6_block_0 = getattr(getattr(getattr(self.features, "5"), "6").block, "0")(add_11)
    permute_30 = torch.permute(features_5_6_block_0, [0, 2, 3, 1]);  features_5_6_block_0 = None
    features_5_6_block_2 = getattr(getattr(getattr(self.features, "5"), "6").block, "2")(permute_30);  permute_30 = None
    features_5_6_block_3 = getattr(getattr(getattr(self.features, "5"), "6").block, "3")(features_5_6_block_2);  features_5_6_block_2 = None
    features_5_6_block_4 = getattr(getattr(getattr(self.features, "5"), "6").block, "4")(features_5_6_block_3);  features_5_6_block_3 = None
    features_5_6_block_5 = getattr(getattr(getattr(self.features, "5"), "6").block, "5")(features_5_6_block_4);  features_5_6_block_4 = None
    permute_31 = torch.permute(features_5_6_block_5, [0, 3, 1, 2]);  features_5_6_block_5 = None
    mul_12 = features_5_6_layer_scale * permute_31;  features_5_6_layer_scale = permute_31 = None
    stochastic_depth_12 = torchvision_ops_stochastic_depth_stochastic_depth(mul_12, 0.07058823529411766, 'row', False);  mul_12 = None
    add_12 = stochastic_depth_12 + add_11;  stochastic_depth_12 = add_11 = None
    features_5_7_layer_scale = getattr(getattr(self.features, "5"), "7").layer_scale
    features_5_7_block_0 = getattr(getattr(getattr(self.features, "5"), "7").block, "0")(add_12)
    permute_32 = torch.permute(features_5_7_block_0, [0, 2, 3, 1]);  features_5_7_block_0 = None
    features_5_7_block_2 = getattr(getattr(getattr(self.features, "5"), "7").block, "2")(permute_32);  permute_32 = None
    features_5_7_block_3 = getattr(getattr(getattr(self.features, "5"), "7").block, "3")(features_5_7_block_2);  features_5_7_block_2 = None
    features_5_7_block_4 = getattr(getattr(getattr(self.features, "5"), "7").block, "4")(features_5_7_block_3);  features_5_7_block_3 = None
    features_5_7_block_5 = getattr(getattr(getattr(self.features, "5"), "7").block, "5")(features_5_7_block_4);  features_5_7_block_4 = None
    permute_33 = torch.permute(features_5_7_block_5, [0, 3, 1, 2]);  features_5_7_block_5 = None
    mul_13 = features_5_7_layer_scale * permute_33;  features_5_7_layer_scale = permute_33 = None
    stochastic_depth_13 = torchvision_ops_stochastic_depth_stochastic_depth(mul_13, 0.07647058823529412, 'row', False);  mul_13 = None
    add_13 = stochastic_depth_13 + add_12;  stochastic_depth_13 = add_12 = None
    features_5_8_layer_scale = getattr(getattr(self.features, "5"), "8").layer_scale
    features_5_8_block_0 = getattr(getattr(getattr(self.features, "5"), "8").block, "0")(add_13)
    permute_34 = torch.permute(features_5_8_block_0, [0, 2, 3, 1]);  features_5_8_block_0 = None
    features_5_8_block_2 = getattr(getattr(getattr(self.features, "5"), "8").block, "2")(permute_34);  permute_34 = None
    features_5_8_block_3 = getattr(getattr(getattr(self.features, "5"), "8").block, "3")(features_5_8_block_2);  features_5_8_block_2 = None
    features_5_8_block_4 = getattr(getattr(getattr(self.features, "5"), "8").block, "4")(features_5_8_block_3);  features_5_8_block_3 = None
    features_5_8_block_5 = getattr(getattr(getattr(self.features, "5"), "8").block, "5")(features_5_8_block_4);  features_5_8_block_4 = None
    permute_35 = torch.permute(features_5_8_block_5, [0, 3, 1, 2]);  features_5_8_block_5 = None
    mul_14 = features_5_8_layer_scale * permute_35;  features_5_8_layer_scale = permute_35 = None
    stochastic_depth_14 = torchvision_ops_stochastic_depth_stochastic_depth(mul_14, 0.0823529411764706, 'row', False);  mul_14 = None
    add_14 = stochastic_depth_14 + add_13;  stochastic_depth_14 = add_13 = None
    permute_36 = add_14.permute(0, 2, 3, 1);  add_14 = None
    features_6_0_weight = getattr(getattr(self.features, "6"), "0").weight
    features_6_0_bias = getattr(getattr(self.features, "6"), "0").bias
    layer_norm_3 = torch.nn.functional.layer_norm(permute_36, (384,), weight = features_6_0_weight, bias = features_6_0_bias, eps = 1e-06);  permute_36 = features_6_0_weight = features_6_0_bias = None
    permute_37 = layer_norm_3.permute(0, 3, 1, 2);  layer_norm_3 = None
    features_6_1 = getattr(getattr(self.features, "6"), "1")(permute_37);  permute_37 = None
    features_7_0_layer_scale = getattr(getattr(self.features, "7"), "0").layer_scale
    features_7_0_block_0 = getattr(getattr(getattr(self.features, "7"), "0").block, "0")(features_6_1)
    permute_38 = torch.permute(features_7_0_block_0, [0, 2, 3, 1]);  features_7_0_block_0 = None
    features_7_0_block_2 = getattr(getattr(getattr(self.features, "7"), "0").block, "2")(permute_38);  permute_38 = None
    features_7_0_block_3 = getattr(getattr(getattr(self.features, "7"), "0").block, "3")(features_7_0_block_2);  features_7_0_block_2 = None
    features_7_0_block_4 = getattr(getattr(getattr(self.features, "7"), "0").block, "4")(features_7_0_block_3);  features_7_0_block_3 = None
    features_7_0_block_5 = getattr(getattr(getattr(self.features, "7"), "0").block, "5")(features_7_0_block_4);  features_7_0_block_4 = None
    permute_39 = torch.permute(features_7_0_block_5, [0, 3, 1, 2]);  features_7_0_block_5 = None
    mul_15 = features_7_0_layer_scale * permute_39;  features_7_0_layer_scale = permute_39 = None
    stochastic_depth_15 = torchvision_ops_stochastic_depth_stochastic_depth(mul_15, 0.08823529411764706, 'row', False);  mul_15 = None
    add_15 = stochastic_depth_15 + features_6_1;  stochastic_depth_15 = features_6_1 = None
    features_7_1_layer_scale = getattr(getattr(self.features, "7"), "1").layer_scale
    features_7_1_block_0 = getattr(getattr(getattr(self.features, "7"), "1").block, "0")(add_15)
    permute_40 = torch.permute(features_7_1_block_0, [0, 2, 3, 1]);  features_7_1_block_0 = None
    features_7_1_block_2 = getattr(getattr(getattr(self.features, "7"), "1").block, "2")(permute_40);  permute_40 = None
    features_7_1_block_3 = getattr(getattr(getattr(self.features, "7"), "1").block, "3")(features_7_1_block_2);  features_7_1_block_2 = None
    features_7_1_block_4 = getattr(getattr(getattr(self.features, "7"), "1").block, "4")(features_7_1_block_3);  features_7_1_block_3 = None
    features_7_1_block_5 = getattr(getattr(getattr(self.features, "7"), "1").block, "5")(features_7_1_block_4);  features_7_1_block_4 = None
    permute_41 = torch.permute(features_7_1_block_5, [0, 3, 1, 2]);  features_7_1_block_5 = None
    mul_16 = features_7_1_layer_scale * permute_41;  features_7_1_layer_scale = permute_41 = None
    stochastic_depth_16 = torchvision_ops_stochastic_depth_stochastic_depth(mul_16, 0.09411764705882353, 'row', False);  mul_16 = None
    add_16 = stochastic_depth_16 + add_15;  stochastic_depth_16 = add_15 = None
    features_7_2_layer_scale = getattr(getattr(self.features, "7"), "2").layer_scale
    features_7_2_block_0 = getattr(getattr(getattr(self.features, "7"), "2").block, "0")(add_16)
    permute_42 = torch.permute(features_7_2_block_0, [0, 2, 3, 1]);  features_7_2_block_0 = None
    features_7_2_block_2 = getattr(getattr(getattr(self.features, "7"), "2").block, "2")(permute_42);  permute_42 = None
    features_7_2_block_3 = getattr(getattr(getattr(self.features, "7"), "2").block, "3")(features_7_2_block_2);  features_7_2_block_2 = None
    features_7_2_block_4 = getattr(getattr(getattr(self.features, "7"), "2").block, "4")(features_7_2_block_3);  features_7_2_block_3 = None
    features_7_2_block_5 = getattr(getattr(getattr(self.features, "7"), "2").block, "5")(features_7_2_block_4);  features_7_2_block_4 = None
    permute_43 = torch.permute(features_7_2_block_5, [0, 3, 1, 2]);  features_7_2_block_5 = None
    mul_17 = features_7_2_layer_scale * permute_43;  features_7_2_layer_scale = permute_43 = None
    stochastic_depth_17 = torchvision_ops_stochastic_depth_stochastic_depth(mul_17, 0.1, 'row', False);  mul_17 = None
    add_17 = stochastic_depth_17 + add_16;  stochastic_depth_17 = add_16 = None
    avgpool = self.avgpool(add_17);  add_17 = None
    permute_44 = avgpool.permute(0, 2, 3, 1);  avgpool = None
    classifier_0_weight = getattr(self.classifier, "0").weight
    classifier_0_bias = getattr(self.classifier, "0").bias
    layer_norm_4 = torch.nn.functional.layer_norm(permute_44, (768,), weight = classifier_0_weight, bias = classifier_0_bias, eps = 1e-06);  permute_44 = classifier_0_weight = classifier_0_bias = None
    permute_45 = layer_norm_4.permute(0, 3, 1, 2);  layer_norm_4 = None
    classifier_1 = getattr(self.classifier, "1")(permute_45);  permute_45 = None
    classifier_2 = getattr(self.classifier, "2")(classifier_1);  classifier_1 = None
    return classifier_2
