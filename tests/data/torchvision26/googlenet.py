# torchvision 0.21.0 models.googlenet(weights=None, aux_logits=False, init_weights=False).eval(), gm.code of torch.fx.symbolic_trace (torch 2.6.0+debian); made by tests/tools/dump-torchvision.py
import torch
import torch.fx
from torchvision.models.googlenet import GoogLeNetOutputs as torchvision_models_googlenet_GoogLeNetOutputs

def forward(self, x : torch.Tensor) -> torchvision_models_googlenet_GoogLeNetOutputs:
    conv1_conv = self.conv1.conv(x);  x = None
    conv1_bn = self.conv1.bn(conv1_conv);  conv1_conv = None
    relu = torch.nn.functional.relu(conv1_bn, inplace = True);  conv1_bn = None
    maxpool1 = self.maxpool1(relu);  relu = None
    conv2_conv = self.conv2.conv(maxpool1);  maxpool1 = None
    conv2_bn = self.conv2.bn(conv2_conv);  conv2_conv = None
    relu_1 = torch.nn.functional.relu(conv2_bn, inplace = True);  conv2_bn = None
    conv3_conv = self.conv3.conv(relu_1);  relu_1 = None
    conv3_bn = self.conv3.bn(conv3_conv);  conv3_conv = None
    relu_2 = torch.nn.functional.relu(conv3_bn, inplace = True);  conv3_bn = None
    maxpool2 = self.maxpool2(relu_2);  relu_2 = None
    inception3a_branch1_conv = self.inception3a.branch1.conv(maxpool2)
    inception3a_branch1_bn = self.inception3a.branch1.bn(inception3a_branch1_conv);  inception3a_branch1_conv = None
    relu_3 = torch.nn.functional.relu(inception3a_branch1_bn, inplace = True);  inception3a_branch1_bn = None
    inception3a_branch2_0_conv = getattr(self.inception3a.branch2, "0").conv(maxpool2)
    inception3a_branch2_0_bn = getattr(self.inception3a.branch2, "0").bn(inception3a_branch2_0_conv);  inception3a_branch2_0_conv = None
    relu_4 = torch.nn.functional.relu(inception3a_branch2_0_bn, inplace = True);  inception3a_branch2_0_bn = None
    inception3a_branch2_1_conv = getattr(self.inception3a.branch2, "1").conv(relu_4);  relu_4 = None
    inception3a_branch2_1_bn = getattr(self.inception3a.branch2, "1").bn(inception3a_branch2_1_conv);  inception3a_branch2_1_conv = None
    relu_5 = torch.nn.functional.relu(inception3a_branch2_1_bn, inplace = True);  inception3a_branch2_1_bn = None
    inception3a_branch3_0_conv = getattr(self.inception3a.branch3, "0").conv(maxpool2)
    inception3a_branch3_0_bn = getattr(self.inception3a.branch3, "0").bn(inception3a_branch3_0_conv);  inception3a_branch3_0_conv = None
    relu_6 = torch.nn.functional.relu(inception3a_branch3_0_bn, inplace = True);  inception3a_branch3_0_bn = None
    inception3a_branch3_1_conv = getattr(self.inception3a.branch3, "1").conv(relu_6);  relu_6 = None
    inception3a_branch3_1_bn = getattr(self.inception3a.branch3, "1").bn(inception3a_branch3_1_conv);  inception3a_branch3_1_conv = None
    relu_7 = torch.nn.functional.relu(inception3a_branch3_1_bn, inplace = True);  inception3a_branch3_1_bn = None
    inception3a_branch4_0 = getattr(self.inception3a.branch4, "0")(maxpool2);  maxpool2 = None
    inception3a_branch4_1_conv = getattr(self.inception3a.branch4, "1").conv(inception3a_branch4_0);  inception3a_branch4_0 = None
    inception3a_branch4_1_bn = getattr(self.inception3a.branch4, "1").bn(inception3a_branch4_1_conv);  inception3a_branch4_1_conv = None
    relu_8 = torch.nn.functional.relu(inception3a_branch4_1_bn, inplace = True);  inception3a_branch4_1_bn = None
    cat = torch.cat([relu_3, relu_5, relu_7, relu_8], 1);  relu_3 = relu_5 = relu_7 = relu_8 = None
    inception3b_branch1_conv = self.inception3b.branch1.conv(cat)
    inception3b_branch1_bn = self.inception3b.branch1.bn(inception3b_branch1_conv);  inception3b_branch1_conv = None
    relu_9 = torch.nn.functional.relu(inception3b_branch1_bn, inplace = True);  inception3b_branch1_bn = None
    inception3b_branch2_0_conv = getattr(self.inception3b.branch2, "0").conv(cat)
    inception3b_branch2_0_bn = getattr(self.inception3b.branch2, "0").bn(inception3b_branch2_0_conv);  inception3b_branch2_0_conv = None
    relu_10 = torch.nn.functional.relu(inception3b_branch2_0_bn, inplace = True);  inception3b_branch2_0_bn = None
    inception3b_branch2_1_conv = getattr(self.inception3b.branch2, "1").conv(relu_10);  relu_10 = None
    inception3b_branch2_1_bn = getattr(self.inception3b.branch2, "1").bn(inception3b_branch2_1_conv);  inception3b_branch2_1_conv = None
    relu_11 = torch.nn.functional.relu(inception3b_branch2_1_bn, inplace = True);  inception3b_branch2_1_bn = None
    inception3b_branch3_0_conv = getattr(self.inception3b.branch3, "0").conv(cat)
    inception3b_branch3_0_bn = getattr(self.inception3b.branch3, "0").bn(inception3b_branch3_0_conv);  inception3b_branch3_0_conv = None
    relu_12 = torch.nn.functional.relu(inception3b_branch3_0_bn, inplace = True);  inception3b_branch3_0_bn = None
    inception3b_branch3_1_conv = getattr(self.inception3b.branch3, "1").conv(relu_12);  relu_12 = None
    inception3b_branch3_1_bn = getattr(self.inception3b.branch3, "1").bn(inception3b_branch3_1_conv);  inception3b_branch3_1_conv = None
    relu_13 = torch.nn.functional.relu(inception3b_branch3_1_bn, inplace = True);  inception3b_branch3_1_bn = None
    inception3b_branch4_0 = getattr(self.inception3b.branch4, "0")(cat);  cat = None
    inception3b_branch4_1_conv = getattr(self.inception3b.branch4, "1").conv(inception3b_branch4_0);  inception3b_branch4_0 = None
    inception3b_branch4_1_bn = getattr(self.inception3b.branch4, "1").bn(inception3b_branch4_1_conv);  inception3b_branch4_1_conv = None
    relu_14 = torch.nn.functional.relu(inception3b_branch4_1_bn, inplace = True);  inception3b_branch4_1_bn = None
    cat_1 = torch.cat([relu_9, relu_11, relu_13, relu_14], 1);  relu_9 = relu_11 = relu_13 = relu_14 = None
    maxpool3 = self.maxpool3(cat_1);  cat_1 = None
    inception4a_branch1_conv = self.inception4a.branch1.conv(maxpool3)
    inception4a_branch1_bn = self.inception4a.branch1.bn(inception4a_branch1_conv);  inception4a_branch1_conv = None
    relu_15 = torch.nn.functional.relu(inception4a_branch1_bn, inplace = True);  inception4a_branch1_bn = None
    inception4a_branch2_0_conv = getattr(self.inception4a.branch2, "0").conv(maxpool3)
    inception4a_branch2_0_bn = getattr(self.inception4a.branch2, "0").bn(inception4a_branch2_0_conv);  inception4a_branch2_0_conv = None
    relu_16 = torch.nn.functional.relu(inception4a_branch2_0_bn, inplace = True);  inception4a_branch2_0_bn = None
    inception4a_branch2_1_conv = getattr(self.inception4a.branch2, "1").conv(relu_16);  relu_16 = None
    inception4a_branch2_1_bn = getattr(self.inception4a.branch2, "1").bn(inception4a_branch2_1_conv);  inception4a_branch2_1_conv = None
    relu_17 = torch.nn.functional.relu(inception4a_branch2_1_bn, inplace = True);  inception4a_branch2_1_bn = None
    inception4a_branch3_0_conv = getattr(self.inception4a.branch3, "0").conv(maxpool3)
    inception4a_branch3_0_bn = getattr(self.inception4a.branch3, "0").bn(inception4a_branch3_0_conv);  inception4a_branch3_0_conv = None
    relu_18 = torch.nn.functional.relu(inception4a_branch3_0_bn, inplace = True);  inception4a_branch3_0_bn = None
    inception4a_branch3_1_conv = getattr(self.inception4a.branch3, "1").conv(relu_18);  relu_18 = None
    inception4a_branch3_1_bn = getattr(self.inception4a.branch3, "1").bn(inception4a_branch3_1_conv);  inception4a_branch3_1_conv = None
    relu_19 = torch.nn.functional.relu(inception4a_branch3_1_bn, inplace = True);  inception4a_branch3_1_bn = None
    inception4a_branch4_0 = getattr(self.inception4a.branch4, "0")(maxpool3);  maxpool3 = None
    inception4a_branch4_1_conv = getattr(self.inception4a.branch4, "1").conv(inception4a_branch4_0);  inception4a_branch4_0 = None
    inception4a_branch4_1_bn = getattr(self.inception4a.branch4, "1").bn(inception4a_branch4_1_conv);  inception4a_branch4_1_conv = None
    relu_20 = torch.nn.functional.relu(inception4a_branch4_1_bn, inplace = True);  inception4a_branch4_1_bn = None
    cat_2 = torch.cat([relu_15, relu_17, relu_19, relu_20], 1);  relu_15 = relu_17 = relu_19 = relu_20 = None
    inception4b_branch1_conv = self.inception4b.branch1.conv(cat_2)
    inception4b_branch1_bn = self.inception4b.branch1.bn(inception4b_branch1_conv);  inception4b_branch1_conv = None
    relu_21 = torch.nn.functional.relu(inception4b_branch1_bn, inplace = True);  inception4b_branch1_bn = None
    inception4b_branch2_0_conv = getattr(self.inception4b.branch2, "0").conv(cat_2)
    inception4b_branch2_0_bn = getattr(self.inception4b.branch2, "0").bn(inception4b_branch2_0_conv);  inception4b_branch2_0_conv = None
    relu_22 = torch.nn.functional.relu(inception4b_branch2_0_bn, inplace = True);  inception4b_branch2_0_bn = None
    inception4b_branch2_1_conv = getattr(self.inception4b.branch2, "1").conv(relu_22);  relu_22 = None
    inception4b_branch2_1_bn = getattr(self.inception4b.branch2, "1").bn(inception4b_branch2_1_conv);  inception4b_branch2_1_conv = None
    relu_23 = torch.nn.functional.relu(inception4b_branch2_1_bn, inplace = True);  inception4b_branch2_1_bn = None
    inception4b_branch3_0_conv = getattr(self.inception4b.branch3, "0").conv(cat_2)
    inception4b_branch3_0_bn = getattr(self.inception4b.branch3, "0").bn(inception4b_branch3_0_conv);  inception4b_branch3_0_conv = None
    relu_24 = torch.nn.functional.relu(inception4b_branch3_0_bn, inplace = True);  inception4b_branch3_0_bn = None
    inception4b_branch3_1_conv = getattr(self.inception4b.branch3, "1").conv(relu_24);  relu_24 = None
    inception4b_branch3_1_bn = getattr(self.inception4b.branch3, "1").bn(inception4b_branch3_1_conv);  inception4b_branch3_1_conv = None
    relu_25 = torch.nn.functional.relu(inception4b_branch3_1_bn, inplace = True);  inception4b_branch3_1_bn = None
    inception4b_branch4_0 = getattr(self.inception4b.branch4, "0")(cat_2);  cat_2 = None
    inception4b_branch4_1_conv = getattr(self.inception4b.branch4, "1").conv(inception4b_branch4_0);  inception4b_branch4_0 = None
    inception4b_branch4_1_bn = getattr(self.inception4b.branch4, "1").bn(inception4b_branch4_1_conv);  inception4b_branch4_1_conv = None
    relu_26 = torch.nn.functional.relu(inception4b_branch4_1_bn, inplace = True);  inception4b_branch4_1_bn = None
    cat_3 = torch.cat([relu_21, relu_23, relu_25, relu_26], 1);  relu_21 = relu_23 = relu_25 = relu_26 = None
    inception4c_branch1_conv = self.inception4c.branch1.conv(cat_3)
    inception4c_branch1_bn = self.inception4c.branch1.bn(inception4c_branch1_conv);  inception4c_branch1_conv = None
    relu_27 = torch.nn.functional.relu(inception4c_branch1_bn, inplace = True);  inception4c_branch1_bn = None
    inception4c_branch2_0_conv = getattr(self.inception4c.branch2, "0").conv(cat_3)
    inception4c_branch2_0_bn = getattr(self.inception4c.branch2, "0").bn(inception4c_branch2_0_conv);  inception4c_branch2_0_conv = None
    relu_28 = torch.nn.functional.relu(inception4c_branch2_0_bn, inplace = True);  inception4c_branch2_0_bn = None
    inception4c_branch2_1_conv = getattr(self.inception4c.branch2, "1").conv(relu_28);  relu_28 = None
    inception4c_branch2_1_bn = getattr(self.inception4c.branch2, "1").bn(inception4c_branch2_1_conv);  inception4c_branch2_1_conv = None
    relu_29 = torch.nn.functional.relu(inception4c_branch2_1_bn, inplace = True);  inception4c_branch2_1_bn = None
    inception4c_branch3_0_conv = getattr(self.inception4c.branch3, "0").conv(cat_3)
    inception4c_branch3_0_bn = getattr(self.inception4c.branch3, "0").bn(inception4c_branch3_0_conv);  inception4c_branch3_0_conv = None
    relu_30 = torch.nn.functional.relu(inception4c_branch3_0_bn, inplace = True);  inception4c_branch3_0_bn = None
    inception4c_branch3_1_conv = getattr(self.inception4c.branch3, "1").conv(relu_30);  relu_30 = None
    inception4c_branch3_1_bn = getattr(self.inception4c.branch3, "1").bn(inception4c_branch3_1_conv);  inception4c_branch3_1_conv = None
    relu_31 = torch.nn.functional.relu(inception4c_branch3_1_bn, inplace = True);  inception4c_branch3_1_bn = None
    inception4c_branch4_0 = getattr(self.inception4c.branch4, "0")(cat_3);  cat_3 = None
    inception4c_branch4_1_conv = getattr(self.inception4c.branch4, "1").conv(inception4c_branch4_0);  inception4c_branch4_0 = None
    inception4c_branch4_1_bn = getattr(self.inception4c.branch4, "1").bn(inception4c_branch4_1_conv);  inception4c_branch4_1_conv = None
    relu_32 = torch.nn.functional.relu(inception4c_branch4_1_bn, inplace = True);  inception4c_branch4_1_bn = None
    cat_4 = torch.cat([relu_27, relu_29, relu_31, relu_32], 1);  relu_27 = relu_29 = relu_31 = relu_32 = None
    inception4d_branch1_conv = self.inception4d.branch1.conv(cat_4)
    inception4d_branch1_bn = self.inception4d.branch1.bn(inception4d_branch1_conv);  inception4d_branch1_conv = None
    relu_33 = torch.nn.functional.relu(inception4d_branch1_bn, inplace = True);  inception4d_branch1_bn = None
    inception4d_branch2_0_conv = getattr(self.inception4d.branch2, "0").conv(cat_4)
    inception4d_branch2_0_bn = getattr(self.inception4d.branch2, "0").bn(inception4d_branch2_0_conv);  inception4d_branch2_0_conv = None
    relu_34 = torch.nn.functional.relu(inception4d_branch2_0_bn, inplace = True);  inception4d_branch2_0_bn = None
    inception4d_branch2_1_conv = getattr(self.inception4d.branch2, "1").conv(relu_34);  relu_34 = None
    inception4d_branch2_1_bn = getattr(self.inception4d.branch2, "1").bn(inception4d_branch2_1_conv);  inception4d_branch2_1_conv = None
    relu_35 = torch.nn.functional.relu(inception4d_branch2_1_bn, inplace = True);  inception4d_branch2_1_bn = None
    inception4d_branch3_0_conv = getattr(self.inception4d.branch3, "0").conv(cat_4)
    inception4d_branch3_0_bn = getattr(self.inception4d.branch3, "0").bn(inception4d_branch3_0_conv);  inception4d_branch3_0_conv = None
    relu_36 = torch.nn.functional.relu(inception4d_branch3_0_bn, inplace = True);  inception4d_branch3_0_bn = None
    inception4d_branch3_1_conv = getattr(self.inception4d.branch3, "1").conv(relu_36);  relu_36 = None
    inception4d_branch3_1_bn = getattr(self.inception4d.branch3, "1").bn(inception4d_branch3_1_conv);  inception4d_branch3_1_conv = None
    relu_37 = torch.nn.functional.relu(inception4d_branch3_1_bn, inplace = True);  inception4d_branch3_1_bn = None
    inception4d_branch4_0 = getattr(self.inception4d.branch4, "0")(cat_4);  cat_4 = None
    inception4d_branch4_1_conv = getattr(self.inception4d.branch4, "1").conv(inception4d_branch4_0);  inception4d_branch4_0 = None
    inception4d_branch4_1_bn = getattr(self.inception4d.branch4, "1").bn(inception4d_branch4_1_conv);  inception4d_branch4_1_conv = None
    relu_38 = torch.nn.functional.relu(inception4d_branch4_1_bn, inplace = True);  inception4d_branch4_1_bn = None
    cat_5 = torch.cat([relu_33, relu_35, relu_37, relu_38], 1);  relu_33 = relu_35 = relu_37 = relu_38 = None
    inception4e_branch1_conv = self.inception4e.branch1.conv(cat_5)
    inception4e_branch1_bn = self.inception4e.branch1.bn(inception4e_branch1_conv);  inception4e_branch1_conv = None
    relu_39 = torch.nn.functional.relu(inception4e_branch1_bn, inplace = True);  inception4e_branch1_bn = None
    inception4e_branch2_0_conv = getattr(self.inception4e.branch2, "0").conv(cat_5)
    inception4e_branch2_0_bn = getattr(self.inception4e.branch2, "0").bn(inception4e_branch2_0_conv);  inception4e_branch2_0_conv = None
    relu_40 = torch.nn.functional.relu(inception4e_branch2_0_bn, inplace = True);  inception4e_branch2_0_bn = None
    inception4e_branch2_1_conv = getattr(self.inception4e.branch2, "1").conv(relu_40);  relu_40 = None
    inception4e_branch2_1_bn = getattr(self.inception4e.branch2, "1").bn(inception4e_branch2_1_conv);  inception4e_branch2_1_conv = None
    relu_41 = torch.nn.functional.relu(inception4e_branch2_1_bn, inplace = True);  inception4e_branch2_1_bn = None
    inception4e_branch3_0_conv = getattr(self.inception4e.branch3, "0").conv(cat_5)
    inception4e_branch3_0_bn = getattr(self.inception4e.branch3, "0").bn(inception4e_branch3_0_conv);  inception4e_branch3_0_conv = None
    relu_42 = torch.nn.functional.relu(inception4e_branch3_0_bn, inplace = True);  inception4e_branch3_0_bn = None
    inception4e_branch3_1_conv = getattr(self.inception4e.branch3, "1").conv(relu_42);  relu_42 = None
    inception4e_branch3_1_bn = getattr(self.inception4e.branch3, "1").bn(inception4e_branch3_1_conv);  inception4e_branch3_1_conv = None
    relu_43 = torch.nn.functional.relu(inception4e_branch3_1_bn, inplace = True);  inception4e_branch3_1_bn = None
    inception4e_branch4_0 = getattr(self.inception4e.branch4, "0")(cat_5);  cat_5 = None
    inception4e_branch4_1_conv = getattr(self.inception4e.branch4, "1").conv(inception4e_branch4_0);  inception4e_branch4_0 = None
    inception4e_branch4_1_bn = getattr(self.inception4e.branch4, "1").bn(inception4e_branch4_1_conv);  inception4e_branch4_1_conv = None
    relu_44 = torch.nn.functional.relu(inception4e_branch4_1_bn, inplace = True);  inception4e_branch4_1_bn = None
    cat_6 = torch.cat([relu_39, relu_41, relu_43, relu_44], 1);  relu_39 = relu_41 = relu_43 = relu_44 = None
    maxpool4 = self.maxpool4(cat_6);  cat_6 = None
    inception5a_branch1_conv = self.inception5a.branch1.conv(maxpool4)
    inception5a_branch1_bn = self.inception5a.branch1.bn(inception5a_branch1_conv);  inception5a_branch1_conv = None
    relu_45 = torch.nn.functional.relu(inception5a_branch1_bn, inplace = True);  inception5a_branch1_bn = None
    inception5a_branch2_0_conv = getattr(self.inception5a.branch2, "0").conv(maxpool4)
    inception5a_branch2_0_bn = getattr(self.inception5a.branch2, "0").bn(inception5a_branch2_0_conv);  inception5a_branch2_0_conv = None
    relu_46 = torch.nn.functional.relu(inception5a_branch2_0_bn, inplace = True);  inception5a_branch2_0_bn = None
    inception5a_branch2_1_conv = getattr(self.inception5a.branch2, "1").conv(relu_46);  relu_46 = None
    inception5a_branch2_1_bn = getattr(self.inception5a.branch2, "1").bn(inception5a_branch2_1_conv);  inception5a_branch2_1_conv = None
    relu_47 = torch.nn.functional.relu(inception5a_branch2_1_bn, inplace = True);  inception5a_branch2_1_bn = None
    inception5a_branch3_0_conv = getattr(self.inception5a.branch3, "0").conv(maxpool4)
    inception5a_branch3_0_bn = getattr(self.inception5a.branch3, "0").bn(inception5a_branch3_0_conv);  inception5a_branch3_0_conv = None
    relu_48 = torch.nn.functional.relu(inception5a_branch3_0_bn, inplace = True);  inception5a_branch3_0_bn = None
    inception5a_branch3_1_conv = getattr(self.inception5a.branch3, "1").conv(relu_48);  relu_48 = None
    inception5a_branch3_1_bn = getattr(self.inception5a.branch3, "1").bn(inception5a_branch3_1_conv);  inception5a_branch3_1_conv = None
    relu_49 = torch.nn.functional.relu(inception5a_branch3_1_bn, inplace = True);  inception5a_branch3_1_bn = None
    inception5a_branch4_0 = getattr(self.inception5a.branch4, "0")(maxpool4);  maxpool4 = None
    inception5a_branch4_1_conv = getattr(self.inception5a.branch4, "1").conv(inception5a_branch4_0);  inception5a_branch4_0 = None
    inception5a_branch4_1_bn = getattr(self.inception5a.branch4, "1").bn(inception5a_branch4_1_conv);  inception5a_branch4_1_conv = None
    relu_50 = torch.nn.functional.relu(inception5a_branch4_1_bn, inplace = True);  inception5a_branch4_1_bn = None
    cat_7 = torch.cat([relu_45, relu_47, relu_49, relu_50], 1);  relu_45 = relu_47 = relu_49 = relu_50 = None
    inception5b_branch1_conv = self.inception5b.branch1.conv(cat_7)
    inception5b_branch1_bn = self.inception5b.branch1.bn(inception5b_branch1_conv);  inception5b_branch1_conv = None
    relu_51 = torch.nn.functional.relu(inception5b_branch1_bn, inplace = True);  inception5b_branch1_bn = None
    inception5b_branch2_0_conv = getattr(self.inception5b.branch2, "0").conv(cat_7)
    inception5b_branch2_0_bn = getattr(self.inception5b.branch2, "0").bn(inception5b_branch2_0_conv);  inception5b_branch2_0_conv = None
    relu_52 = torch.nn.functional.relu(inception5b_branch2_0_bn, inplace = True);  inception5b_branch2_0_bn = None
    inception5b_branch2_1_conv = getattr(self.inception5b.branch2, "1").conv(relu_52);  relu_52 = None
    inception5b_branch2_1_bn = getattr(self.inception5b.branch2, "1").bn(inception5b_branch2_1_conv);  inception5b_branch2_1_conv = None
    relu_53 = torch.nn.functional.relu(inception5b_branch2_1_bn, inplace = True);  inception5b_branch2_1_bn = None
    inception5b_branch3_0_conv = getattr(self.inception5b.branch3, "0").conv(cat_7)
    inception5b_branch3_0_bn = getattr(self.inception5b.branch3, "0").bn(inception5b_branch3_0_conv);  inception5b_branch3_0_conv = None
    relu_54 = torch.nn.functional.relu(inception5b_branch3_0_bn, inplace = True);  inception5b_branch3_0_bn = None
    inception5b_branch3_1_conv = getattr(self.inception5b.branch3, "1").conv(relu_54);  relu_54 = None
    inception5b_branch3_1_bn = getattr(self.inception5b.branch3, "1").bn(inception5b_branch3_1_conv);  inception5b_branch3_1_conv = None
    relu_55 = torch.nn.functional.relu(inception5b_branch3_1_bn, inplace = True);  inception5b_branch3_1_bn = None
    inception5b_branch4_0 = getattr(self.inception5b.branch4, "0")(cat_7);  cat_7 = None
    inception5b_branch4_1_conv = getattr(self.inception5b.branch4, "1").conv(inception5b_branch4_0);  inception5b_branch4_0 = None
    inception5b_branch4_1_bn = getattr(self.inception5b.branch4, "1").bn(inception5b_branch4_1_conv);  inception5b_branch4_1_conv = None
    relu_56 = torch.nn.functional.relu(inception5b_branch4_1_bn, inplace = True);  inception5b_branch4_1_bn = None
    cat_8 = torch.cat([relu_51, relu_53, relu_55, relu_56], 1);  relu_51 = relu_53 = relu_55 = relu_56 = None
    avgpool = self.avgpool(cat_8);  cat_8 = None
    flatten = torch.flatten(avgpool, 1);  avgpool = None
    dropout = self.dropout(flatten);  flatten = None
    fc = self.fc(dropout);  dropout = None
    return fc
