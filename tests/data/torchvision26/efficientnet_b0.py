# torchvision 0.21.0 models.efficientnet_b0(weights=None).eval(), gm.code of torch.fx.symbolic_trace (torch 2.6.0+debian); made by tests/tools/dump-torchvision.py
import torch
import torch.fx
from torchvision.ops.stochastic_depth import stochastic_depth as torchvision_ops_stochastic_depth_stochastic_depth
torch.fx._symbolic_trace.wrap("torchvision_ops_stochastic_depth_stochastic_depth")

def forward(self, x : torch.Tensor) -> torch.Tensor:
    features_0_0 = getattr(getattr(self.features, "0"), "0")(x);  x = None
    features_0_1 = getattr(getattr(self.features, "0"), "1")(features_0_0);  features_0_0 = None
    features_0_2 = getattr(getattr(self.features, "0"), "2")(features_0_1);  features_0_1 = None
    features_1_0_block_0_0 = getattr(getattr(getattr(getattr(self.features, "1"), "0").block, "0"), "0")(features_0_2);  features_0_2 = None
    features_1_0_block_0_1 = getattr(getattr(getattr(getattr(self.features, "1"), "0").block, "0"), "1")(features_1_0_block_0_0);  features_1_0_block_0_0 = None
    features_1_0_block_0_2 = getattr(getattr(getattr(getattr(self.features, "1"), "0").block, "0"), "2")(features_1_0_block_0_1);  features_1_0_block_0_1 = None
    features_1_0_block_1_avgpool = getattr(getattr(getattr(self.features, "1"), "0").block, "1").avgpool(features_1_0_block_0_2)
    features_1_0_block_1_fc1 = getattr(getattr(getattr(self.features, "1"), "0").block, "1").fc1(features_1_0_block_1_avgpool);  features_1_0_block_1_avgpool = None
    features_1_0_block_1_activation = getattr(getattr(getattr(self.features, "1"), "0").block, "1").activation(features_1_0_block_1_fc1);  features_1_0_block_1_fc1 = None
    features_1_0_block_1_fc2 = getattr(getattr(getattr(self.features, "1"), "0").block, "1").fc2(features_1_0_block_1_activation);  features_1_0_block_1_activation = None
    features_1_0_block_1_scale_activation = getattr(getattr(getattr(self.features, "1"), "0").block, "1").scale_activation(features_1_0_block_1_fc2);  features_1_0_block_1_fc2 = None
    mul = features_1_0_block_1_scale_activation * features_1_0_block_0_2;  features_1_0_block_1_scale_activation = features_1_0_block_0_2 = None
    features_1_0_block_2_0 = getattr(getattr(getattr(getattr(self.features, "1"), "0").block, "2"), "0")(mul);  mul = None
    features_1_0_block_2_1 = getattr(getattr(getattr(getattr(self.features, "1"), "0").block, "2"), "1")(features_1_0_block_2_0);  features_1_0_block_2_0 = None
    features_2_0_block_0_0 = getattr(getattr(getattr(getattr(self.features, "2"), "0").block, "0"), "0")(features_1_0_block_2_1);  features_1_0_block_2_1 = None
    features_2_0_block_0_1 = getattr(getattr(getattr(getattr(self.features, "2"), "0").block, "0"), "1")(features_2_0_block_0_0);  features_2_0_block_0_0 = None
    features_2_0_block_0_2 = getattr(getattr(getattr(getattr(self.features, "2"), "0").block, "0"), "2")(features_2_0_block_0_1);  features_2_0_block_0_1 = None
    features_2_0_block_1_0 = getattr(getattr(getattr(getattr(self.features, "2"), "0").block, "1"), "0")(features_2_0_block_0_2);  features_2_0_block_0_2 = None
    features_2_0_block_1_1 = getattr(getattr(getattr(getattr(self.features, "2"), "0").block, "1"), "1")(features_2_0_block_1_0);  features_2_0_block_1_0 = None
    features_2_0_block_1_2 = getattr(getattr(getattr(getattr(self.features, "2"), "0").block, "1"), "2")(features_2_0_block_1_1);  features_2_0_block_1_1 = None
    features_2_0_block_2_avgpool = getattr(getattr(getattr(self.features, "2"), "0").block, "2").avgpool(features_2_0_block_1_2)
    features_2_0_block_2_fc1 = getattr(getattr(getattr(self.features, "2"), "0").block, "2").fc1(features_2_0_block_2_avgpool);  features_2_0_block_2_avgpool = None
    features_2_0_block_2_activation = getattr(getattr(getattr(self.features, "2"), "0").block, "2").activation(features_2_0_block_2_fc1);  features_2_0_block_2_fc1 = None
    features_2_0_block_2_fc2 = getattr(getattr(getattr(self.features, "2"), "0").block, "2").fc2(features_2_0_block_2_activation);  features_2_0_block_2_activation = None
    features_2_0_block_2_scale_activation = getattr(getattr(getattr(self.features, "2"), "0").block, "2").scale_activation(features_2_0_block_2_fc2);  features_2_0_block_2_fc2 = None
    mul_1 = features_2_0_block_2_scale_activation * features_2_0_block_1_2;  features_2_0_block_2_scale_activation = features_2_0_block_1_2 = None
    features_2_0_block_3_0 = getattr(getattr(getattr(getattr(self.features, "2"), "0").block, "3"), "0")(mul_1);  mul_1 = None
    features_2_0_block_3_1 = getattr(getattr(getattr(getattr(self.features, "2"), "0").block, "3"), "1")(features_2_0_block_3_0);  features_2_0_block_3_0 = None
    features_2_1_block_0_0 = getattr(getattr(getattr(getattr(self.features, "2"), "1").block, "0"), "0")(features_2_0_block_3_1)
    features_2_1_block_0_1 = getattr(getattr(getattr(getattr(self.features, "2"), "1").block, "0"), "1")(features_2_1_block_0_0);  features_2_1_block_0_0 = None
    features_2_1_block_0_2 = getattr(getattr(getattr(getattr(self.features, "2"), "1").block, "0"), "2")(features_2_1_block_0_1);  features_2_1_block_0_1 = None
    features_2_1_block_1_0 = getattr(getattr(getattr(getattr(self.features, "2"), "1").block, "1"), "0")(features_2_1_block_0_2);  features_2_1_block_0_2 = None
    features_2_1_block_1_1 = getattr(getattr(getattr(getattr(self.features, "2"), "1").block, "1"), "1")(features_2_1_block_1_0);  features_2_1_block_1_0 = None
    features_2_1_block_1_2 = getattr(getattr(getattr(getattr(self.features, "2"), "1").block, "1"), "2")(features_2_1_block_1_1);  features_2_1_block_1_1 = None
    features_2_1_block_2_avgpool = getattr(getattr(getattr(self.features, "2"), "1").block, "2").avgpool(features_2_1_block_1_2)
    features_2_1_block_2_fc1 = getattr(getattr(getattr(self.features, "2"), "1").block, "2").fc1(features_2_1_block_2_avgpool);  features_2_1_block_2_avgpool = None
    features_2_1_block_2_activation = getattr(getattr(getattr(self.features, "2"), "1").block, "2").activation(features_2_1_block_2_fc1);  features_2_1_block_2_fc1 = None
    features_2_1_block_2_fc2 = getattr(getattr(getattr(self.features, "2"), "1").block, "2").fc2(features_2_1_block_2_activation);  features_2_1_block_2_activation = None
    features_2_1_block_2_scale_activation = getattr(getattr(getattr(self.features, "2"), "1").block, "2").scale_activation(features_2_1_block_2_fc2);  features_2_1_block_2_fc2 = None
    mul_2 = features_2_1_block_2_scale_activation * features_2_1_block_1_2;  features_2_1_block_2_scale_activation = features_2_1_block_1_2 = None
    features_2_1_block_3_0 = getattr(getattr(getattr(getattr(self.features, "2"), "1").block, "3"), "0")(mul_2);  mul_2 = None
    features_2_1_block_3_1 = getattr(getattr(getattr(getattr(self.features, "2"), "1").block, "3"), "1")(features_2_1_block_3_0);  features_2_1_block_3_0 = None
    stochastic_depth = torchvision_ops_stochastic_depth_stochastic_depth(features_2_1_block_3_1, 0.025, 'row', False);  features_2_1_block_3_1 = None
    add = stochastic_depth + features_2_0_block_3_1;  stochastic_depth = features_2_0_block_3_1 = None
    features_3_0_block_0_0 = getattr(getattr(getattr(getattr(self.features, "3"), "0").block, "0"), "0")(add);  add = None
    features_3_0_block_0_1 = getattr(getattr(getattr(getattr(self.features, "3"), "0").block, "0"), "1")(features_3_0_block_0_0);  features_3_0_block_0_0 = None
    features_3_0_block_0_2 = getattr(getattr(getattr(getattr(self.features, "3"), "0").block, "0"), "2")(features_3_0_block_0_1);  features_3_0_block_0_1 = None
    features_3_0_block_1_0 = getattr(getattr(getattr(getattr(self.features, "3"), "0").block, "1"), "0")(features_3_0_block_0_2);  features_3_0_block_0_2 = None
    features_3_0_block_1_1 = getattr(getattr(getattr(getattr(self.features, "3"), "0").block, "1"), "1")(features_3_0_block_1_0);  features_3_0_block_1_0 = None
    features_3_0_block_1_2 = getattr(getattr(getattr(getattr(self.features, "3"), "0").block, "1"), "2")(features_3_0_block_1_1);  features_3_0_block_1_1 = None
    features_3_0_block_2_avgpool = getattr(getattr(getattr(self.features, "3"), "0").block, "2").avgpool(features_3_0_block_1_2)
    features_3_0_block_2_fc1 = getattr(getattr(getattr(self.features, "3"), "0").block, "2").fc1(features_3_0_block_2_avgpool);  features_3_0_block_2_avgpool = None
    features_3_0_block_2_activation = getattr(getattr(getattr(self.features, "3"), "0").block, "2").activation(features_3_0_block_2_fc1);  features_3_0_block_2_fc1 = None
    features_3_0_block_2_fc2 = getattr(getattr(getattr(self.features, "3"), "0").block, "2").fc2(features_3_0_block_2_activation);  features_3_0_block_2_activation = None
    features_3_0_block_2_scale_activation = getattr(getattr(getattr(self.features, "3"), "0").block, "2").scale_activation(features_3_0_block_2_fc2);  features_3_0_block_2_fc2 = None
    mul_3 = features_3_0_block_2_scale_activation * features_3_0_block_1_2;  features_3_0_block_2_scale_activation = features_3_0_block_1_2 = None
    features_3_0_block_3_0 = getattr(getattr(getattr(getattr(self.features, "3"), "0").block, "3"), "0")(mul_3);  mul_3 = None
    features_3_0_block_3_1 = getattr(getattr(getattr(getattr(self.features, "3"), "0").block, "3"), "1")(features_3_0_block_3_0);  features_3_0_block_3_0 = None
    features_3_1_block_0_0 = getattr(getattr(getattr(getattr(self.features, "3"), "1").block, "0"), "0")(features_3_0_block_3_1)
    features_3_1_block_0_1 = getattr(getattr(getattr(getattr(self.features, "3"), "1").block, "0"), "1")(features_3_1_block_0_0);  features_3_1_block_0_0 = None
    features_3_1_block_0_2 = getattr(getattr(getattr(getattr(self.features, "3"), "1").block, "0"), "2")(features_3_1_block_0_1);  features_3_1_block_0_1 = None
    features_3_1_block_1_0 = getattr(getattr(getattr(getattr(self.features, "3"), "1").block, "1"), "0")(features_3_1_block_0_2);  features_3_1_block_0_2 = None
    features_3_1_block_1_1 = getattr(getattr(getattr(getattr(self.features, "3"), "1").block, "1"), "1")(features_3_1_block_1_0);  features_3_1_block_1_0 = None
    features_3_1_block_1_2 = getattr(getattr(getattr(getattr(self.features, "3"), "1").block, "1"), "2")(features_3_1_block_1_1);  features_3_1_block_1_1 = None
    features_3_1_block_2_avgpool = getattr(getattr(getattr(self.features, "3"), "1").block, "2").avgpool(features_3_1_block_1_2)
    features_3_1_block_2_fc1 = getattr(getattr(getattr(self.features, "3"), "1").block, "2").fc1(features_3_1_block_2_avgpool);  features_3_1_block_2_avgpool = None
    features_3_1_block_2_activation = getattr(getattr(getattr(self.features, "3"), "1").block, "2").activation(features_3_1_block_2_fc1);  features_3_1_block_2_fc1 = None
    features_3_1_block_2_fc2 = getattr(getattr(getattr(self.features, "3"), "1").block, "2").fc2(features_3_1_block_2_activation);  features_3_1_block_2_activation = None
    features_3_1_block_2_scale_activation = getattr(getattr(getattr(self.features, "3"), "1").block, "2").scale_activation(features_3_1_block_2_fc2);  features_3_1_block_2_fc2 = None
    mul_4 = features_3_1_block_2_scale_activation * features_3_1_block_1_2;  features_3_1_block_2_scale_activation = features_3_1_block_1_2 = None
    features_3_1_block_3_0 = getattr(getattr(getattr(getattr(self.features, "3"), "1").block, "3"), "0")(mul_4);  mul_4 = None
    features_3_1_block_3_1 = getattr(getattr(getattr(getattr(self.features, "3"), "1").block, "3"), "1")(features_3_1_block_3_0);  features_3_1_block_3_0 = None
    stochastic_depth_1 = torchvision_ops_stochastic_depth_stochastic_depth(features_3_1_block_3_1, 0.05, 'row', False);  features_3_1_block_3_1 = None
    add_1 = stochastic_depth_1 + features_3_0_block_3_1;  stochastic_depth_1 = features_3_0_block_3_1 = None
    features_4_0_block_0_0 = getattr(getattr(getattr(getattr(self.features, "4"), "0").block, "0"), "0")(add_1);  add_1 = None
    features_4_0_block_0_1 = getattr(getattr(getattr(getattr(self.features, "4"), "0").block, "0"), "1")(features_4_0_block_0_0);  features_4_0_block_0_0 = None
    features_4_0_block_0_2 = getattr(getattr(getattr(getattr(self.features, "4"), "0").block, "0"), "2")(features_4_0_block_0_1);  features_4_0_block_0_1 = None
    features_4_0_block_1_0 = getattr(getattr(getattr(getattr(self.features, "4"), "0").block, "1"), "0")(features_4_0_block_0_2);  features_4_0_block_0_2 = None
    features_4_0_block_1_1 = getattr(getattr(getattr(getattr(self.features, "4"), "0").block, "1"), "1")(features_4_0_block_1_0);  features_4_0_block_1_0 = None
    features_4_0_block_1_2 = getattr(getattr(getattr(getattr(self.features, "4"), "0").block, "1"), "2")(features_4_0_block_1_1);  features_4_0_block_1_1 = None
    features_4_0_block_2_avgpool = getattr(getattr(getattr(self.features, "4"), "0").block, "2").avgpool(features_4_0_block_1_2)
    features_4_0_block_2_fc1 = getattr(getattr(getattr(self.features, "4"), "0").block, "2").fc1(features_4_0_block_2_avgpool);  features_4_0_block_2_avgpool = None
    features_4_0_block_2_activation = getattr(getattr(getattr(self.features, "4"), "0").block, "2").activation(features_4_0_block_2_fc1);  features_4_0_block_2_fc1 = None
    features_4_0_block_2_fc2 = getattr(getattr(getattr(self.features, "4"), "0").block, "2").fc2(features_4_0_block_2_activation);  features_4_0_block_2_activation = None
    features_4_0_block_2_scale_activation = getattr(getattr(getattr(self.features, "4"), "0").block, "2").scale_activation(features_4_0_block_2_fc2);  features_4_0_block_2_fc2 = None
    mul_5 = features_4_0_block_2_scale_activation * features_4_0_block_1_2;  features_4_0_block_2_scale_activation = features_4_0_block_1_2 = None
    features_4_0_block_3_0 = getattr(getattr(getattr(getattr(self.features, "4"), "0").block, "3"), "0")(mul_5);  mul_5 = None
    features_4_0_block_3_1 = getattr(getattr(getattr(getattr(self.features, "4"), "0").block, "3"), "1")(features_4_0_block_3_0);  features_4_0_block_3_0 = None
    features_4_1_block_0_0 = getattr(getattr(getattr(getattr(self.features, "4"), "1").block, "0"), "0")(features_4_0_block_3_1)
    features_4_1_block_0_1 = getattr(getattr(getattr(getattr(self.features, "4"), "1").block, "0"), "1")(features_4_1_block_0_0);  features_4_1_block_0_0 = None
    features_4_1_block_0_2 = getattr(getattr(getattr(getattr(self.features, "4"), "1").block, "0"), "2")(features_4_1_block_0_1);  features_4_1_block_0_1 = None
    features_4_1_block_1_0 = getattr(getattr(getattr(getattr(self.features, "4"), "1").block, "1"), "0")(features_4_1_block_0_2);  features_4_1_block_0_2 = None
    features_4_1_block_1_1 = getattr(getattr(getattr(getattr(self.features, "4"), "1").block, "1"), "1")(features_4_1_block_1_0);  features_4_1_block_1_0 = None
    features_4_1_block_1_2 = getattr(getattr(getattr(getattr(self.features, "4"), "1").block, "1"), "2")(features_4_1_block_1_1);  features_4_1_block_1_1 = None
    features_4_1_block_2_avgpool = getattr(getattr(getattr(self.features, "4"), "1").block, "2").avgpool(features_4_1_block_1_2)
    features_4_1_block_2_fc1 = getattr(getattr(getattr(self.features, "4"), "1").block, "2").fc1(features_4_1_block_2_avgpool);  features_4_1_block_2_avgpool = None
    features_4_1_block_2_activation = getattr(getattr(getattr(self.features, "4"), "1").block, "2").activation(features_4_1_block_2_fc1);  features_4_1_block_2_fc1 = None
    features_4_1_block_2_fc2 = getattr(getattr(getattr(self.features, "4"), "1").block, "2").fc2(features_4_1_block_2_activation);  features_4_1_block_2_activation = None
    features_4_1_block_2_scale_activation = getattr(getattr(getattr(self.features, "4"), "1").block, "2").scale_activation(features_4_1_block_2_fc2);  features_4_1_block_2_fc2 = None
    mul_6 = features_4_1_block_2_scale_activation * features_4_1_block_1_2;  features_4_1_block_2_scale_activation = features_4_1_block_1_2 = None
    features_4_1_block_3_0 = getattr(getattr(getattr(getattr(self.features, "4"), "1").block, "3"), "0")(mul_6);  mul_6 = None
    features_4_1_block_3_1 = getattr(getattr(getattr(getattr(self.features, "4"), "1").block, "3"), "1")(features_4_1_block_3_0);  features_4_1_block_3_0 = None
    stochastic_depth_2 = torchvision_ops_stochastic_depth_stochastic_depth(features_4_1_block_3_1, 0.07500000000000001, 'row', False);  features_4_1_block_3_1 = None
    add_2 = stochastic_depth_2 + features_4_0_block_3_1;  stochastic_depth_2 = features_4_0_block_3_1 = None
    features_4_2_block_0_0 = getattr(getattr(getattr(getattr(self.features, "4"), "2").block, "0"), "0")(add_2)
    features_4_2_block_0_1 = getattr(getattr(getattr(getattr(self.features, "4"), "2").block, "0"), "1")(features_4_2_block_0_0);  features_4_2_block_0_0 = None
    features_4_2_block_0_2 = getattr(getattr(getattr(getattr(self.features, "4"), "2").block, "0"), "2")(features_4_2_block_0_1);  features_4_2_block_0_1 = None
    features_4_2_block_1_0 = getattr(getattr(getattr(getattr(self.features, "4"), "2").block, "1"), "0")(features_4_2_block_0_2);  features_4_2_block_0_2 = None
    features_4_2_block_1_1 = getattr(getattr(getattr(getattr(self.features, "4"), "2").block, "1"), "1")(features_4_2_block_1_0);  features_4_2_block_1_0 = None
    features_4_2_block_1_2 = getattr(getattr(getattr(getattr(self.features, "4"), "2").block, "1"), "2")(features_4_2_block_1_1);  features_4_2_block_1_1 = None
    features_4_2_block_2_avgpool = getattr(getattr(getattr(self.features, "4"), "2").block, "2").avgpool(features_4_2_block_1_2)
    features_4_2_block_2_fc1 = getattr(getattr(getattr(self.features, "4"), "2").block, "2").fc1(features_4_2_block_2_avgpool);  features_4_2_block_2_avgpool = None
    features_4_2_block_2_activation = getattr(getattr(getattr(self.features, "4"), "2").block, "2").activation(features_4_2_block_2_fc1);  features_4_2_block_2_fc1 = None
    features_4_2_block_2_fc2 = getattr(getattr(getattr(self.features, "4"), "2").block, "2").fc2(features_4_2_block_2_activation);  features_4_2_block_2_activation = None
    features_4_2_block_2_scale_activation = getattr(getattr(getattr(self.features, "4"), "2").block, "2").scale_activation(features_4_2_block_2_fc2);  features_4_2_block_2_fc2 = None
    mul_7 = features_4_2_block_2_scale_activation * features_4_2_block_1_2;  features_4_2_block_2_scale_activation = features_4_2_block_1_2 = None
    features_4_2_block_3_0 = getattr(getattr(getattr(getattr(self.features, "4"), "2").block, "3"), "0")(mul_7);  mul_7 = None
    features_4_2_block_3_1 = getattr(getattr(getattr(getattr(self.features, "4"), "2").block, "3"), "1")(features_4_2_block_3_0);  features_4_2_block_3_0 = None
    stochastic_depth_3 = torchvision_ops_stochastic_depth_stochastic_depth(features_4_2_block_3_1, 0.08750000000000001, 'row', False);  features_4_2_block_3_1 = None
    add_3 = stochastic_depth_3 + add_2;  stochastic_depth_3 = add_2 = None
    features_5_0_block_0_0 = getattr(getattr(getattr(getattr(self.features, "5"), "0").block, "0"), "0")(add_3);  add_3 = None
    features_5_0_block_0_1 = getattr(getattr(getattr(getattr(self.features, "5"), "0").block, "0"), "1")(features_5_0_block_0_0);  features_5_0_block_0_0 = None
    features_5_0_block_0_2 = getattr(getattr(getattr(getattr(self.features, "5"), "0").block, "0"), "2")(features_5_0_block_0_1);  features_5_0_block_0_1 = None
    features_5_0_block_1_0 = getattr(getattr(getattr(getattr(self.features, "5"), "0").block, "1"), "0")(features_5_0_block_0_2);  features_5_0_block_0_2 = None
    features_5_0_block_1_1 = getattr(getattr(getattr(getattr(self.features, "5"), "0").block, "1"), "1")(features_5_0_block_1_0);  features_5_0_block_1_0 = None
    features_5_0_block_1_2 = getattr(getattr(getattr(getattr(self.features, "5"), "0").block, "1"), "2")(features_5_0_block_1_1);  features_5_0_block_1_1 = None
    features_5_0_block_2_avgpool = getattr(getattr(getattr(self.features, "5"), "0").block, "2").avgpool(features_5_0_block_1_2)
    features_5_0_block_2_fc1 = getattr(getattr(getattr(self.features, "5"), "0").block, "2").fc1(features_5_0_block_2_avgpool);  features_5_0_block_2_avgpool = None
    features_5_0_block_2_activation = getattr(getattr(getattr(self.features, "5"), "0").block, "2").activation(features_5_0_block_2_fc1);  features_5_0_block_2_fc1 = None
    features_5_0_block_2_fc2 = getattr(getattr(getattr(self.features, "5"), "0").block, "2").fc2(features_5_0_block_2_activation);  features_5_0_block_2_activation = None
    features_5_0_block_2_scale_activation = getattr(getattr(getattr(self.features, "5"), "0").block, "2").scale_activation(features_5_0_block_2_fc2);  features_5_0_block_2_fc2 = None
    mul_8 = features_5_0_block_2_scale_activation * features_5_0_block_1_2;  features_5_0_block_2_scale_activation = features_5_0_block_1_2 = None
    features_5_0_block_3_0 = getattr(getattr(getattr(getattr(self.features, "5"), "0").block, "3"), "0")(mul_8);  mul_8 = None
    features_5_0_block_3_1 = getattr(getattr(getattr(getattr(self.features, "5"), "0").block, "3"), "1")(features_5_0_block_3_0);  features_5_0_block_3_0 = None
    features_5_1_block_0_0 = getattr(getattr(getattr(getattr(self.features, "5"), "1").block, "0"), "0")(features_5_0_block_3_1)
    features_5_1_block_0_1 = getattr(getattr(getattr(getattr(self.features, "5"), "1").block, "0"), "1")(features_5_1_block_0_0);  features_5_1_block_0_0 = None
    features_5_1_block_0_2 = getattr(getattr(getattr(getattr(self.features, "5"), "1").block, "0"), "2")(features_5_1_block_0_1);  features_5_1_block_0_1 = None
    features_5_1_block_1_0 = getattr(getattr(getattr(getattr(self.features, "5"), "1").block, "1"), "0")(features_5_1_block_0_2);  features_5_1_block_0_2 = None
    features_5_1_block_1_1 = getattr(getattr(getattr(getattr(self.features, "5"), "1").block, "1"), "1")(features_5_1_block_1_0);  features_5_1_block_1_0 = None
    features_5_1_block_1_2 = getattr(getattr(getattr(getattr(self.features, "5"), "1").block, "1"), "2")(features_5_1_block_1_1);  features_5_1_block_1_1 = None
    features_5_1_block_2_avgpool = getattr(getattr(getattr(self.features, "5"), "1").block, "2").avgpool(features_5_1_block_1_2)
    features_5_1_block_2_fc1 = getattr(getattr(getattr(self.features, "5"), "1").block, "2").fc1(features_5_1_block_2_avgpool);  features_5_1_block_2_avgpool = None
    features_5_1_block_2_activation = getattr(getattr(getattr(self.features, "5"), "1").block, "2").activation(features_5_1_block_2_fc1);  features_5_1_block_2_fc1 = None
    features_5_1_block_2_fc2 = getattr(getattr(getattr(self.features, "5"), "1").block, "2").fc2(features_5_1_block_2_activation);  features_5_1_block_2_activation = None
    features_5_1_block_2_scale_activation = getattr(getattr(getattr(self.features, "5"), "1").block, "2").scale_activation(features_5_1_block_2_fc2);  features_5_1_block_2_fc2 = None
    mul_9 = features_5_1_block_2_scale_activation * features_5_1_block_1_2;  features_5_1_block_2_scale_activation = features_5_1_block_1_2 = None
    features_5_1_block_3_0 = getattr(getattr(getattr(getattr(self.features, "5"), "1").block, "3"), "0")(mul_9);  mul_9 = None
    features_5_1_block_3_1 = getattr(getattr(getattr(getattr(self.features, "5"), "1").block, "3"), "1")(features_5_1_block_3_0);  features_5_1_block_3_0 = None
    stochastic_depth_4 = torchvision_ops_stochastic_depth_stochastic_depth(features_5_1_block_3_1, 0.1125, 'row', False);  features_5_1_block_3_1 = None
    add_4 = stochastic_depth_4 + features_5_0_block_3_1;  stochastic_depth_4 = features_5_0_block_3_1 = None
    features_5_2_block_0_0 = getattr(getattr(getattr(getattr(self.features, "5"), "2").block, "0"), "0")(add_4)
    features_5_2_block_0_1 = getattr(getattr(getattr(getattr(self.features, "5"), "2").block, "0"), "1")(features_5_2_block_0_0);  features_5_2_block_0_0 = None
    features_5_2_block_0_2 = getattr(getattr(getattr(getattr(self.features, "5"), "2").block, "0"), "2")(features_5_2_block_0_1);  features_5_2_block_0_1 = None
    features_5_2_block_1_0 = getattr(getattr(getattr(getattr(self.features, "5"), "2").block, "1"), "0")(features_5_2_block_0_2);  features_5_2_block_0_2 = None
    features_5_2_block_1_1 = getattr(getattr(getattr(getattr(self.features, "5"), "2").block, "1"), "1")(features_5_2_block_1_0);  features_5_2_block_1_0 = None
    features_5_2_block_1_2 = getattr(getattr(getattr(getattr(self.features, "5"), "2").block, "1"), "2")(features_5_2_block_1_1);  features_5_2_block_1_1 = None
    features_5_2_block_2_avgpool = getattr(getattr(getattr(self.features, "5"), "2").block, "2").avgpool(features_5_2_block_1_2)
    features_5_2_block_2_fc1 = getattr(getattr(getattr(self.features, "5"), "2").block, "2").fc1(features_5_2_block_2_avgpool);  features_5_2_block_2_avgpool = None
    features_5_2_block_2_activation = getattr(getattr(getattr(self.features, "5"), "2").block, "2").activation(features_5_2_block_2_fc1);  features_5_2_block_2_fc1 = None
    features_5_2_block_2_fc2 = getattr(getattr(getattr(self.features, "5"), "2").block, "2").fc2(features_5_2_block_2_activation);  features_5_2_block_2_activation = None
    features_5_2_block_2_scale_activation = getattr(getattr(getattr(self.features, "5"), "2").block, "2").scale_activation(features_5_2_block_2_fc2);  features_5_2_block_2_fc2 = None
    mul_10 = features_5_2_block_2_scale_activation * features_5_2_block_1_2;  features_5_2_block_2_scale_activation = features_5_2_block_1_2 = None
    features_5_2_block_3_0 = getattr(getattr(getattr(getattr(self.features, "5"), "2").block, "3"), "0")(mul_10);  mul_10 = None
    features_5_2_block_3_1 = getattr(getattr(getattr(getattr(self.features, "5"), "2").block, "3"), "1")(features_5_2_block_3_0);  features_5_2_block_3_0 = None
    stochastic_depth_5 = torchvision_ops_stochastic_depth_stochastic_depth(features_5_2_block_3_1, 0.125, 'row', False);  features_5_2_block_3_1 = None
    add_5 = stochastic_depth_5 + add_4;  stochastic_depth_5 = add_4 = None
    features_6_0_block_0_0 = getattr(getattr(getattr(getattr(self.features, "6"), "0").block, "0"), "0")(add_5);  add_5 = None
    features_6_0_block_0_1 = getattr(getattr(getattr(getattr(self.features, "6"), "0").block, "0"), "1")(features_6_0_block_0_0);  features_6_0_block_0_0 = None
    features_6_0_block_0_2 = getattr(getattr(getattr(getattr(self.features, "6"), "0").block, "0"), "2")(features_6_0_block_0_1);  features_6_0_block_0_1 = None
    features_6_0_block_1_0 = getattr(getattr(getattr(getattr(self.features, "6"), "0").block, "1"), "0")(features_6_0_block_0_2);  features_6_0_block_0_2 = None
    features_6_0_block_1_1 = getattr(getattr(getattr(getattr(self.features, "6"), "0").block, "1"), "1")(features_6_0_block_1_0);  features_6_0_block_1_0 = None
    features_6_0_block_1_2 = getattr(getattr(getattr(getattr(self.features, "6"), "0").block, "1"), "2")(features_6_0_block_1_1);  features_6_0_block_1_1 = None
    features_6_0_block_2_avgpool = getattr(getattr(getattr(self.features, "6"), "0").block, "2").avgpool(features_6_0_block_1_2)
    features_6_0_block_2_fc1 = getattr(getattr(getattr(self.features, "6"), "0").block, "2").fc1(features_6_0_block_2_avgpool);  features_6_0_block_2_avgpool = None
    features_6_0_block_2_activation = getattr(getattr(getattr(self.features, "6"), "0").block, "2").activation(features_6_0_block_2_fc1);  features_6_0_block_2_fc1 = None
    features_6_0_block_2_fc2 = getattr(getattr(getattr(self.features, "6"), "0").block, "2").fc2(features_6_0_block_2_activation);  features_6_0_block_2_activation = None
    features_6_0_block_2_scale_activation = getattr(getattr(getattr(self.features, "6"), "0").block, "2").scale_activation(features_6_0_block_2_fc2);  features_6_0_block_2_fc2 = None
    mul_11 = features_6_0_block_2_scale_activation * features_6_0_block_1_2;  features_6_0_block_2_scale_activation = features_6_0_block_1_2 = None
    features_6_0_block_3_0 = getattr(getattr(getattr(getattr(self.features, "6"), "0").block, "3"), "0")(mul_11);  mul_11 = None
    features_6_0_block_3_1 = getattr(getattr(getattr(getattr(self.features, "6"), "0").block, "3"), "1")(features_6_0_block_3_0);  features_6_0_block_3_0 = None
    features_6_1_block_0_0 = getattr(getattr(getattr(getattr(self.features, "6"), "1").block, "0"), "0")(features_6_0_block_3_1)
    features_6_1_block_0_1 = getattr(getattr(getattr(getattr(self.features, "6"), "1").block, "0"), "1")(features_6_1_block_0_0);  features_6_1_block_0_0 = None
    features_6_1_block_0_2 = getattr(getattr(getattr(getattr(self.features, "6"), "1").block, "0"), "2")(features_6_1_block_0_1);  features_6_1_block_0_1 = None
    features_6_1_block_1_0 = getattr(getattr(getattr(getattr(self.features, "6"), "1").block, "1"), "0")(features_6_1_block_0_2);  features_6_1_block_0_2 = None
    features_6_1_block_1_1 = getattr(getattr(getattr(getattr(self.features, "6"), "1").block, "1"), "1")(features_6_1_block_1_0);  features_6_1_block_1_0 = None
    features_6_1_block_1_2 = getattr(getattr(getattr(getattr(self.features, "6"), "1").block, "1"), "2")(features_6_1_block_1_1);  features_6_1_block_1_1 = None
    features_6_1_block_2_avgpool = getattr(getattr(getattr(self.features, "6"), "1").block, "2").avgpool(features_6_1_block_1_2)
    features_6_1_block_2_fc1 = getattr(getattr(getattr(self.features, "6"), "1").block, "2").fc1(features_6_1_block_2_avgpool);  features_6_1_block_2_avgpool = None
    features_6_1_block_2_activation = getattr(getattr(getattr(self.features, "6"), "1").block, "2").activation(features_6_1_block_2_fc1);  features_6_1_block_2_fc1 = None
    features_6_1_block_2_fc2 = getattr(getattr(getattr(self.features, "6"), "1").block, "2").fc2(features_6_1_block_2_activation);  features_6_1_block_2_activation = None
    features_6_1_block_2_scale_activation = getattr(getattr(getattr(self.features, "6"), "1").block, "2").scale_activation(features_6_1_block_2_fc2);  features_6_1_block_2_fc2 = None
    mul_12 = features_6_1_block_2_scale_activation * features_6_1_block_1_2;  features_6_1_block_2_scale_activation = features_6_1_block_1_2 = None
    features_6_1_block_3_0 = getattr(getattr(getattr(getattr(self.features, "6"), "1").block, "3"), "0")(mul_12);  mul_12 = None
    features_6_1_block_3_1 = getattr(getattr(getattr(getattr(self.features, "6"), "1").block, "3"), "1")(features_6_1_block_3_0);  features_6_1_block_3_0 = None
    stochastic_depth_6 = torchvision_ops_stochastic_depth_stochastic_depth(features_6_1_block_3_1, 0.15000000000000002, 'row', False);  features_6_1_block_3_1 = None
    add_6 = stochastic_depth_6 + features_6_0_block_3_1;  stochastic_depth_6 = features_6_0_block_3_1 = None
    features_6_2_block_0_0 = getattr(getattr(getattr(getattr(self.features, "6"), "2").block, "0"), "0")(add_6)
    features_6_2_block_0_1 = getattr(getattr(getattr(getattr(self.features, "6"), "2").block, "0"), "1")(features_6_2_block_0_0);  features_6_2_block_0_0 = None
    features_6_2_block_0_2 = getattr(getattr(getattr(getattr(self.features, "6"), "2").block, "0"), "2")(features_6_2_block_0_1);  features_6_2_block_0_1 = None
    features_6_2_block_1_0 = getattr(getattr(getattr(getattr(self.features, "6"), "2").block, "1"), "0")(features_6_2_block_0_2);  features_6_2_block_0_2 = None
    features_6_2_block_1_1 = getattr(getattr(getattr(getattr(self.features, "6"), "2").block, "1"), "1")(features_6_2_block_1_0);  features_6_2_block_1_0 = None
    features_6_2_block_1_2 = getattr(getattr(getattr(getattr(self.features, "6"), "2").block, "1"), "2")(features_6_2_block_1_1);  features_6_2_block_1_1 = None
    features_6_2_block_2_avgpool = getattr(getattr(getattr(self.features, "6"), "2").block, "2").avgpool(features_6_2_block_1_2)
    features_6_2_block_2_fc1 = getattr(getattr(getattr(self.features, "6"), "2").block, "2").fc1(features_6_2_block_2_avgpool);  features_6_2_block_2_avgpool = None
    features_6_2_block_2_activation = getattr(getattr(getattr(self.features, "6"), "2").block, "2").activation(features_6_2_block_2_fc1);  features_6_2_block_2_fc1 = None
    features_6_2_block_2_fc2 = getattr(getattr(getattr(self.features, "6"), "2").block, "2").fc2(features_6_2_block_2_activation);  features_6_2_block_2_activation = None
    features_6_2_block_2_scale_activation = getattr(getattr(getattr(self.features, "6"), "2").block, "2").scale_activation(features_6_2_block_2_fc2);  features_6_2_block_2_fc2 = None
    mul_13 = features_6_2_block_2_scale_activation * features_6_2_block_1_2;  features_6_2_block_2_scale_activation = features_6_2_block_1_2 = None
    features_6_2_block_3_0 = getattr(getattr(getattr(getattr(self.features, "6"), "2").block, "3"), "0")(mul_13);  mul_13 = None
    features_6_2_block_3_1 = getattr(getattr(getattr(getattr(self.features, "6"), "2").block, "3"), "1")(features_6_2_block_3_0);  features_6_2_block_3_0 = None
    stochastic_depth_7 = torchvision_ops_stochastic_depth_stochastic_depth(features_6_2_block_3_1, 0.1625, 'row', False);  features_6_2_block_3_1 = None
    add_7 = stochastic_depth_7 + add_6;  stochastic_depth_7 = add_6 = None
    features_6_3_block_0_0 = getattr(getattr(getattr(getattr(self.features, "6"), "3").block, "0"), "0")(add_7)
    features_6_3_block_0_1 = getattr(getattr(getattr(getattr(self.features, "6"), "3").block, "0"), "1")(features_6_3_block_0_0);  features_6_3_block_0_0 = None
    features_6_3_block_0_2 = getattr(getattr(getattr(getattr(self.features, "6"), "3").block, "0"), "2")(features_6_3_block_0_1);  features_6_3_block_0_1 = None
    features_6_3_block_1_0 = getattr(getattr(getattr(getattr(self.features, "6"), "3").block, "1"), "0")(features_6_3_block_0_2);  features_6_3_block_0_2 = None
    features_6_3_block_1_1 = getattr(getattr(getattr(getattr(self.features, "6"), "3").block, "1"), "1")(features_6_3_block_1_0);  features_6_3_block_1_0 = None
    features_6_3_block_1_2 = getattr(getattr(getattr(getattr(self.features, "6"), "3").block, "1"), "2")(features_6_3_block_1_1);  features_6_3_block_1_1 = None
    features_6_3_block_2_avgpool = getattr(getattr(getattr(self.features, "6"), "3").block, "2").avgpool(features_6_3_block_1_2)
    features_6_3_block_2_fc1 = getattr(getattr(getattr(self.features, "6"), "3").block, "2").fc1(features_6_3_block_2_avgpool);  features_6_3_block_2_avgpool = None
    features_6_3_block_2_activation = getattr(getattr(getattr(self.features, "6"), "3").block, "2").activation(features_6_3_block_2_fc1);  features_6_3_block_2_fc1 = None
    features_6_3_block_2_fc2 = getattr(getattr(getattr(self.features, "6"), "3").block, "2").fc2(features_6_3_block_2_activation);  features_6_3_block_2_activation = None
    features_6_3_block_2_scale_activation = getattr(getattr(getattr(self.features, "6"), "3").block, "2").scale_activation(features_6_3_block_2_fc2);  features_6_3_block_2_fc2 = None
    mul_14 = features_6_3_block_2_scale_activation * features_6_3_block_1_2;  features_6_3_block_2_scale_activation = features_6_3_block_1_2 = None
    features_6_3_block_3_0 = getattr(getattr(getattr(getattr(self.features, "6"), "3").block, "3"), "0")(mul_14);  mul_14 = None
    features_6_3_block_3_1 = getattr(getattr(getattr(getattr(self.features, "6"), "3").block, "3"), "1")(features_6_3_block_3_0);  features_6_3_block_3_0 = None
    stochastic_depth_8 = torchvision_ops_stochastic_depth_stochastic_depth(features_6_3_block_3_1, 0.17500000000000002, 'row', False);  features_6_3_block_3_1 = None
    add_8 = stochastic_depth_8 + add_7;  stochastic_depth_8 = add_7 = None
    features_7_0_block_0_0 = getattr(getattr(getattr(getattr(self.features, "7"), "0").block, "0"), "0")(add_8);  add_8 = None
    features_7_0_block_0_1 = getattr(getattr(getattr(getattr(self.features, "7"), "0").block, "0"), "1")(features_7_0_block_0_0);  features_7_0_block_0_0 = None
    features_7_0_block_0_2 = getattr(getattr(getattr(getattr(self.features, "7"), "0").block, "0"), "2")(features_7_0_block_0_1);  features_7_0_block_0_1 = None
    features_7_0_block_1_0 = getattr(getattr(getattr(getattr(self.features, "7"), "0").block, "1"), "0")(features_7_0_block_0_2);  features_7_0_block_0_2 = None
    features_7_0_block_1_1 = getattr(getattr(getattr(getattr(self.features, "7"), "0").block, "1"), "1")(features_7_0_block_1_0);  features_7_0_block_1_0 = None
    features_7_0_block_1_2 = getattr(getattr(getattr(getattr(self.features, "7"), "0").block, "1"), "2")(features_7_0_block_1_1);  features_7_0_block_1_1 = None
    features_7_0_block_2_avgpool = getattr(getattr(getattr(self.features, "7"), "0").block, "2").avgpool(features_7_0_block_1_2)
    features_7_0_block_2_fc1 = getattr(getattr(getattr(self.features, "7"), "0").block, "2").fc1(features_7_0_block_2_avgpool);  features_7_0_block_2_avgpool = None
    features_7_0_block_2_activation = getattr(getattr(getattr(self.features, "7"), "0").block, "2").activation(features_7_0_block_2_fc1);  features_7_0_block_2_fc1 = None
    features_7_0_block_2_fc2 = getattr(getattr(getattr(self.features, "7"), "0").block, "2").fc2(features_7_0_block_2_activation);  features_7_0_block_2_activation = None
    features_7_0_block_2_scale_activation = getattr(getattr(getattr(self.features, "7"), "0").block, "2").scale_activation(features_7_0_block_2_fc2);  features_7_0_block_2_fc2 = None
    mul_15 = features_7_0_block_2_scale_activation * features_7_0_block_1_2;  features_7_0_block_2_scale_activation = features_7_0_block_1_2 = None
    features_7_0_block_3_0 = getattr(getattr(getattr(getattr(self.features, "7"), "0").block, "3"), "0")(mul_15);  mul_15 = None
    features_7_0_block_3_1 = getattr(getattr(getattr(getattr(self.features, "7"), "0").block, "3"), "1")(features_7_0_block_3_0);  features_7_0_block_3_0 = None
    features_8_0 = getattr(getattr(self.features, "8"), "0")(features_7_0_block_3_1);  features_7_0_block_3_1 = None
    features_8_1 = getattr(getattr(self.features, "8"), "1")(features_8_0);  features_8_0 = None
    features_8_2 = getattr(getattr(self.features, "8"), "2")(features_8_1);  features_8_1 = None
    avgpool = self.avgpool(features_8_2);  features_8_2 = None
    flatten = torch.flatten(avgpool, 1);  avgpool = None
    classifier_0 = getattr(self.classifier, "0")(flatten);  flatten = None
    classifier_1 = getattr(self.classifier, "1")(classifier_0);  classifier_0 = None
    return classifier_1
