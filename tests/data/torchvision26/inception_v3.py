# torchvision 0.21.0 models.inception_v3(weights=None, aux_logits=False, init_weights=False).eval(), gm.code of torch.fx.symbolic_trace (torch 2.6.0+debian); made by tests/tools/dump-torchvision.py
import torch
import torch.fx
from torchvision.models.inception import InceptionOutputs as torchvision_models_inception_InceptionOutputs

def forward(self, x : torch.Tensor) -> torchvision_models_inception_InceptionOutputs:
    conv2d_1a_3x3_conv = self.Conv2d_1a_3x3.conv(x);  x = None
    conv2d_1a_3x3_bn = self.Conv2d_1a_3x3.bn(conv2d_1a_3x3_conv);  conv2d_1a_3x3_conv = None
    relu = torch.nn.functional.relu(conv2d_1a_3x3_bn, inplace = True);  conv2d_1a_3x3_bn = None
    conv2d_2a_3x3_conv = self.Conv2d_2a_3x3.conv(relu);  relu = None
    conv2d_2a_3x3_bn = self.Conv2d_2a_3x3.bn(conv2d_2a_3x3_conv);  conv2d_2a_3x3_conv = None
    relu_1 = torch.nn.functional.relu(conv2d_2a_3x3_bn, inplace = True);  conv2d_2a_3x3_bn = None
    conv2d_2b_3x3_conv = self.Conv2d_2b_3x3.conv(relu_1);  relu_1 = None
    conv2d_2b_3x3_bn = self.Conv2d_2b_3x3.bn(conv2d_2b_3x3_conv);  conv2d_2b_3x3_conv = None
    relu_2 = torch.nn.functional.relu(conv2d_2b_3x3_bn, inplace = True);  conv2d_2b_3x3_bn = None
    maxpool1 = self.maxpool1(relu_2);  relu_2 = None
    conv2d_3b_1x1_conv = self.Conv2d_3b_1x1.conv(maxpool1);  maxpool1 = None
    conv2d_3b_1x1_bn = self.Conv2d_3b_1x1.bn(conv2d_3b_1x1_conv);  conv2d_3b_1x1_conv = None
    relu_3 = torch.nn.functional.relu(conv2d_3b_1x1_bn, inplace = True);  conv2d_3b_1x1_bn = None
    conv2d_4a_3x3_conv = self.Conv2d_4a_3x3.conv(relu_3);  relu_3 = None
    conv2d_4a_3x3_bn = self.Conv2d_4a_3x3.bn(conv2d_4a_3x3_conv);  conv2d_4a_3x3_conv = None
    relu_4 = torch.nn.functional.relu(conv2d_4a_3x3_bn, inplace = True);  conv2d_4a_3x3_bn = None
    maxpool2 = self.maxpool2(relu_4);  relu_4 = None
    mixed_5b_branch1x1_conv = self.Mixed_5b.branch1x1.conv(maxpool2)
    mixed_5b_branch1x1_bn = self.Mixed_5b.branch1x1.bn(mixed_5b_branch1x1_conv);  mixed_5b_branch1x1_conv = None
    relu_5 = torch.nn.functional.relu(mixed_5b_branch1x1_bn, inplace = True);  mixed_5b_branch1x1_bn = None
    mixed_5b_branch5x5_1_conv = self.Mixed_5b.branch5x5_1.conv(maxpool2)
    mixed_5b_branch5x5_1_bn = self.Mixed_5b.branch5x5_1.bn(mixed_5b_branch5x5_1_conv);  mixed_5b_branch5x5_1_conv = None
    relu_6 = torch.nn.functional.relu(mixed_5b_branch5x5_1_bn, inplace = True);  mixed_5b_branch5x5_1_bn = None
    mixed_5b_branch5x5_2_conv = self.Mixed_5b.branch5x5_2.conv(relu_6);  relu_6 = None
    mixed_5b_branch5x5_2_bn = self.Mixed_5b.branch5x5_2.bn(mixed_5b_branch5x5_2_conv);  mixed_5b_branch5x5_2_conv = None
    relu_7 = torch.nn.functional.relu(mixed_5b_branch5x5_2_bn, inplace = True);  mixed_5b_branch5x5_2_bn = None
    mixed_5b_branch3x3dbl_1_conv = self.Mixed_5b.branch3x3dbl_1.conv(maxpool2)
    mixed_5b_branch3x3dbl_1_bn = self.Mixed_5b.branch3x3dbl_1.bn(mixed_5b_branch3x3dbl_1_conv);  mixed_5b_branch3x3dbl_1_conv = None
    relu_8 = torch.nn.functional.relu(mixed_5b_branch3x3dbl_1_bn, inplace = True);  mixed_5b_branch3x3dbl_1_bn = None
    mixed_5b_branch3x3dbl_2_conv = self.Mixed_5b.branch3x3dbl_2.conv(relu_8);  relu_8 = None
    mixed_5b_branch3x3dbl_2_bn = self.Mixed_5b.branch3x3dbl_2.bn(mixed_5b_branch3x3dbl_2_conv);  mixed_5b_branch3x3dbl_2_conv = None
    relu_9 = torch.nn.functional.relu(mixed_5b_branch3x3dbl_2_bn, inplace = True);  mixed_5b_branch3x3dbl_2_bn = None
    mixed_5b_branch3x3dbl_3_conv = self.Mixed_5b.branch3x3dbl_3.conv(relu_9);  relu_9 = None
    mixed_5b_branch3x3dbl_3_bn = self.Mixed_5b.branch3x3dbl_3.bn(mixed_5b_branch3x3dbl_3_conv);  mixed_5b_branch3x3dbl_3_conv = None
    relu_10 = torch.nn.functional.relu(mixed_5b_branch3x3dbl_3_bn, inplace = True);  mixed_5b_branch3x3dbl_3_bn = None
    avg_pool2d = torch._C._nn.avg_pool2d(maxpool2, kernel_size = 3, stride = 1, padding = 1);  maxpool2 = None
    mixed_5b_branch_pool_conv = self.Mixed_5b.branch_pool.conv(avg_pool2d);  avg_pool2d = None
    mixed_5b_branch_pool_bn = self.Mixed_5b.branch_pool.bn(mixed_5b_branch_pool_conv);  mixed_5b_branch_pool_conv = None
    relu_11 = torch.nn.functional.relu(mixed_5b_branch_pool_bn, inplace = True);  mixed_5b_branch_pool_bn = None
    cat = torch.cat([relu_5, relu_7, relu_10, relu_11], 1);  relu_5 = relu_7 = relu_10 = relu_11 = None
    mixed_5c_branch1x1_conv = self.Mixed_5c.branch1x1.conv(cat)
    mixed_5c_branch1x1_bn = self.Mixed_5c.branch1x1.bn(mixed_5c_branch1x1_conv);  mixed_5c_branch1x1_conv = None
    relu_12 = torch.nn.functional.relu(mixed_5c_branch1x1_bn, inplace = True);  mixed_5c_branch1x1_bn = None
    mixed_5c_branch5x5_1_conv = self.Mixed_5c.branch5x5_1.conv(cat)
    mixed_5c_branch5x5_1_bn = self.Mixed_5c.branch5x5_1.bn(mixed_5c_branch5x5_1_conv);  mixed_5c_branch5x5_1_conv = None
    relu_13 = torch.nn.functional.relu(mixed_5c_branch5x5_1_bn, inplace = True);  mixed_5c_branch5x5_1_bn = None
    mixed_5c_branch5x5_2_conv = self.Mixed_5c.branch5x5_2.conv(relu_13);  relu_13 = None
    mixed_5c_branch5x5_2_bn = self.Mixed_5c.branch5x5_2.bn(mixed_5c_branch5x5_2_conv);  mixed_5c_branch5x5_2_conv = None
    relu_14 = torch.nn.functional.relu(mixed_5c_branch5x5_2_bn, inplace = True);  mixed_5c_branch5x5_2_bn = None
    mixed_5c_branch3x3dbl_1_conv = self.Mixed_5c.branch3x3dbl_1.conv(cat)
    mixed_5c_branch3x3dbl_1_bn = self.Mixed_5c.branch3x3dbl_1.bn(mixed_5c_branch3x3dbl_1_conv);  mixed_5c_branch3x3dbl_1_conv = None
    relu_15 = torch.nn.functional.relu(mixed_5c_branch3x3dbl_1_bn, inplace = True);  mixed_5c_branch3x3dbl_1_bn = None
    mixed_5c_branch3x3dbl_2_conv = self.Mixed_5c.branch3x3dbl_2.conv(relu_15);  relu_15 = None
    mixed_5c_branch3x3dbl_2_bn = self.Mixed_5c.branch3x3dbl_2.bn(mixed_5c_branch3x3dbl_2_conv);  mixed_5c_branch3x3dbl_2_conv = None
    relu_16 = torch.nn.functional.relu(mixed_5c_branch3x3dbl_2_bn, inplace = True);  mixed_5c_branch3x3dbl_2_bn = None
    mixed_5c_branch3x3dbl_3_conv = self.Mixed_5c.branch3x3dbl_3.conv(relu_16);  relu_16 = None
    mixed_5c_branch3x3dbl_3_bn = self.Mixed_5c.branch3x3dbl_3.bn(mixed_5c_branch3x3dbl_3_conv);  mixed_5c_branch3x3dbl_3_conv = None
    relu_17 = torch.nn.functional.relu(mixed_5c_branch3x3dbl_3_bn, inplace = True);  mixed_5c_branch3x3dbl_3_bn = None
    avg_pool2d_1 = torch._C._nn.avg_pool2d(cat, kernel_size = 3, stride = 1, padding = 1);  cat = None
    mixed_5c_branch_pool_conv = self.Mixed_5c.branch_pool.conv(avg_pool2d_1);  avg_pool2d_1 = None
    mixed_5c_branch_pool_bn = self.Mixed_5c.branch_pool.bn(mixed_5c_branch_pool_conv);  mixed_5c_branch_pool_conv = None
    relu_18 = torch.nn.functional.relu(mixed_5c_branch_pool_bn, inplace = True);  mixed_5c_branch_pool_bn = None
    cat_1 = torch.cat([relu_12, relu_14, relu_17, relu_18], 1);  relu_12 = relu_14 = relu_17 = relu_18 = None
    mixed_5d_branch1x1_conv = self.Mixed_5d.branch1x1.conv(cat_1)
    mixed_5d_branch1x1_bn = self.Mixed_5d.branch1x1.bn(mixed_5d_branch1x1_conv);  mixed_5d_branch1x1_conv = None
    relu_19 = torch.nn.functional.relu(mixed_5d_branch1x1_bn, inplace = True);  mixed_5d_branch1x1_bn = None
    mixed_5d_branch5x5_1_conv = self.Mixed_5d.branch5x5_1.conv(cat_1)
    mixed_5d_branch5x5_1_bn = self.Mixed_5d.branch5x5_1.bn(mixed_5d_branch5x5_1_conv);  mixed_5d_branch5x5_1_conv = None
    relu_20 = torch.nn.functional.relu(mixed_5d_branch5x5_1_bn, inplace = True);  mixed_5d_branch5x5_1_bn = None
    mixed_5d_branch5x5_2_conv = self.Mixed_5d.branch5x5_2.conv(relu_20);  relu_20 = None
    mixed_5d_branch5x5_2_bn = self.Mixed_5d.branch5x5_2.bn(mixed_5d_branch5x5_2_conv);  mixed_5d_branch5x5_2_conv = None
    relu_21 = torch.nn.functional.relu(mixed_5d_branch5x5_2_bn, inplace = True);  mixed_5d_branch5x5_2_bn = None
    mixed_5d_branch3x3dbl_1_conv = self.Mixed_5d.branch3x3dbl_1.conv(cat_1)
    mixed_5d_branch3x3dbl_1_bn = self.Mixed_5d.branch3x3dbl_1.bn(mixed_5d_branch3x3dbl_1_conv);  mixed_5d_branch3x3dbl_1_conv = None
    relu_22 = torch.nn.functional.relu(mixed_5d_branch3x3dbl_1_bn, inplace = True);  mixed_5d_branch3x3dbl_1_bn = None
    mixed_5d_branch3x3dbl_2_conv = self.Mixed_5d.branch3x3dbl_2.conv(relu_22);  relu_22 = None
    mixed_5d_branch3x3dbl_2_bn = self.Mixed_5d.branch3x3dbl_2.bn(mixed_5d_branch3x3dbl_2_conv);  mixed_5d_branch3x3dbl_2_conv = None
    relu_23 = torch.nn.functional.relu(mixed_5d_branch3x3dbl_2_bn, inplace = True);  mixed_5d_branch3x3dbl_2_bn = None
    mixed_5d_branch3x3dbl_3_conv = self.Mixed_5d.branch3x3dbl_3.conv(relu_23);  relu_23 = None
    mixed_5d_branch3x3dbl_3_bn = self.Mixed_5d.branch3x3dbl_3.bn(mixed_5d_branch3x3dbl_3_conv);  mixed_5d_branch3x3dbl_3_conv = None
    relu_24 = torch.nn.functional.relu(mixed_5d_branch3x3dbl_3_bn, inplace = True);  mixed_5d_branch3x3dbl_3_bn = None
    avg_pool2d_2 = torch._C._nn.avg_pool2d(cat_1, kernel_size = 3, stride = 1, padding = 1);  cat_1 = None
    mixed_5d_branch_pool_conv = self.Mixed_5d.branch_pool.conv(avg_pool2d_2);  avg_pool2d_2 = None
    mixed_5d_branch_pool_bn = self.Mixed_5d.branch_pool.bn(mixed_5d_branch_pool_conv);  mixed_5d_branch_pool_conv = None
    relu_25 = torch.nn.functional.relu(mixed_5d_branch_pool_bn, inplace = True);  mixed_5d_branch_pool_bn = None
    cat_2 = torch.cat([relu_19, relu_21, relu_24, relu_25], 1);  relu_19 = relu_21 = relu_24 = relu_25 = None
    mixed_6a_branch3x3_conv = self.Mixed_6a.branch3x3.conv(cat_2)
    mixed_6a_branch3x3_bn = self.Mixed_6a.branch3x3.bn(mixed_6a_branch3x3_conv);  mixed_6a_branch3x3_conv = None
    relu_26 = torch.nn.functional.relu(mixed_6a_branch3x3_bn, inplace = True);  mixed_6a_branch3x3_bn = None
    mixed_6a_branch3x3dbl_1_conv = self.Mixed_6a.branch3x3dbl_1.conv(cat_2)
    mixed_6a_branch3x3dbl_1_bn = self.Mixed_6a.branch3x3dbl_1.bn(mixed_6a_branch3x3dbl_1_conv);  mixed_6a_branch3x3dbl_1_conv = None
    relu_27 = torch.nn.functional.relu(mixed_6a_branch3x3dbl_1_bn, inplace = True);  mixed_6a_branch3x3dbl_1_bn = None
    mixed_6a_branch3x3dbl_2_conv = self.Mixed_6a.branch3x3dbl_2.conv(relu_27);  relu_27 = None
    mixed_6a_branch3x3dbl_2_bn = self.Mixed_6a.branch3x3dbl_2.bn(mixed_6a_branch3x3dbl_2_conv);  mixed_6a_branch3x3dbl_2_conv = None
    relu_28 = torch.nn.functional.relu(mixed_6a_branch3x3dbl_2_bn, inplace = True);  mixed_6a_branch3x3dbl_2_bn = None
    mixed_6a_branch3x3dbl_3_conv = self.Mixed_6a.branch3x3dbl_3.conv(relu_28);  relu_28 = None
    mixed_6a_branch3x3dbl_3_bn = self.Mixed_6a.branch3x3dbl_3.bn(mixed_6a_branch3x3dbl_3_conv);  mixed_6a_branch3x3dbl_3_conv = None
    relu_29 = torch.nn.functional.relu(mixed_6a_branch3x3dbl_3_bn, inplace = True);  mixed_6a_branch3x3dbl_3_bn = None
    max_pool2d = torch.nn.functional.max_pool2d(cat_2, 3, stride = 2, padding = 0, dilation = 1, ceil_mode = False, return_indices = False);  cat_2 = None
    cat_3 = torch.cat([relu_26, relu_29, max_pool2d], 1);  relu_26 = relu_29 = max_pool2d = None
    mixed_6b_branch1x1_conv = self.Mixed_6b.branch1x1.conv(cat_3)
    mixed_6b_branch1x1_bn = self.Mixed_6b.branch1x1.bn(mixed_6b_branch1x1_conv);  mixed_6b_branch1x1_conv = None
    relu_30 = torch.nn.functional.relu(mixed_6b_branch1x1_bn, inplace = True);  mixed_6b_branch1x1_bn = None
    mixed_6b_branch7x7_1_conv = self.Mixed_6b.branch7x7_1.conv(cat_3)
    mixed_6b_branch7x7_1_bn = self.Mixed_6b.branch7x7_1.bn(mixed_6b_branch7x7_1_conv);  mixed_6b_branch7x7_1_conv = None
    relu_31 = torch.nn.functional.relu(mixed_6b_branch7x7_1_bn, inplace = True);  mixed_6b_branch7x7_1_bn = None
    mixed_6b_branch7x7_2_conv = self.Mixed_6b.branch7x7_2.conv(relu_31);  relu_31 = None
    mixed_6b_branch7x7_2_bn = self.Mixed_6b.branch7x7_2.bn(mixed_6b_branch7x7_2_conv);  mixed_6b_branch7x7_2_conv = None
    relu_32 = torch.nn.functional.relu(mixed_6b_branch7x7_2_bn, inplace = True);  mixed_6b_branch7x7_2_bn = None
    mixed_6b_branch7x7_3_conv = self.Mixed_6b.branch7x7_3.conv(relu_32);  relu_32 = None
    mixed_6b_branch7x7_3_bn = self.Mixed_6b.branch7x7_3.bn(mixed_6b_branch7x7_3_conv);  mixed_6b_branch7x7_3_conv = None
    relu_33 = torch.nn.functional.relu(mixed_6b_branch7x7_3_bn, inplace = True);  mixed_6b_branch7x7_3_bn = None
    mixed_6b_branch7x7dbl_1_conv = self.Mixed_6b.branch7x7dbl_1.conv(cat_3)
    mixed_6b_branch7x7dbl_1_bn = self.Mixed_6b.branch7x7dbl_1.bn(mixed_6b_branch7x7dbl_1_conv);  mixed_6b_branch7x7dbl_1_conv = None
    relu_34 = torch.nn.functional.relu(mixed_6b_branch7x7dbl_1_bn, inplace = True);  mixed_6b_branch7x7dbl_1_bn = None
    mixed_6b_branch7x7dbl_2_conv = self.Mixed_6b.branch7x7dbl_2.conv(relu_34);  relu_34 = None
    mixed_6b_branch7x7dbl_2_bn = self.Mixed_6b.branch7x7dbl_2.bn(mixed_6b_branch7x7dbl_2_conv);  mixed_6b_branch7x7dbl_2_conv = None
    relu_35 = torch.nn.functional.relu(mixed_6b_branch7x7dbl_2_bn, inplace = True);  mixed_6b_branch7x7dbl_2_bn = None
    mixed_6b_branch7x7dbl_3_conv = self.Mixed_6b.branch7x7dbl_3.conv(relu_35);  relu_35 = None
    mixed_6b_branch7x7dbl_3_bn = self.Mixed_6b.branch7x7dbl_3.bn(mixed_6b_branch7x7dbl_3_conv);  mixed_6b_branch7x7dbl_3_conv = None
    relu_36 = torch.nn.functional.relu(mixed_6b_branch7x7dbl_3_bn, inplace = True);  mixed_6b_branch7x7dbl_3_bn = None
    mixed_6b_branch7x7dbl_4_conv = self.Mixed_6b.branch7x7dbl_4.conv(relu_36);  relu_36 = None
    mixed_6b_branch7x7dbl_4_bn = self.Mixed_6b.branch7x7dbl_4.bn(mixed_6b_branch7x7dbl_4_conv);  mixed_6b_branch7x7dbl_4_conv = None
    relu_37 = torch.nn.functional.relu(mixed_6b_branch7x7dbl_4_bn, inplace = True);  mixed_6b_branch7x7dbl_4_bn = None
    mixed_6b_branch7x7dbl_5_conv = self.Mixed_6b.branch7x7dbl_5.conv(relu_37);  relu_37 = None
    mixed_6b_branch7x7dbl_5_bn = self.Mixed_6b.branch7x7dbl_5.bn(mixed_6b_branch7x7dbl_5_conv);  mixed_6b_branch7x7dbl_5_conv = None
    relu_38 = torch.nn.functional.relu(mixed_6b_branch7x7dbl_5_bn, inplace = True);  mixed_6b_branch7x7dbl_5_bn = None
    avg_pool2d_3 = torch._C._nn.avg_pool2d(cat_3, kernel_size = 3, stride = 1, padding = 1);  cat_3 = None
    mixed_6b_branch_pool_conv = self.Mixed_6b.branch_pool.conv(avg_pool2d_3);  avg_pool2d_3 = None
    mixed_6b_branch_pool_bn = self.Mixed_6b.branch_pool.bn(mixed_6b_branch_pool_conv);  mixed_6b_branch_pool_conv = None
    relu_39 = torch.nn.functional.relu(mixed_6b_branch_pool_bn, inplace = True);  mixed_6b_branch_pool_bn = None
    cat_4 = torch.cat([relu_30, relu_33, relu_38, relu_39], 1);  relu_30 = relu_33 = relu_38 = relu_39 = None
    mixed_6c_branch1x1_conv = self.Mixed_6c.branch1x1.conv(cat_4)
    mixed_6c_branch1x1_bn = self.Mixed_6c.branch1x1.bn(mixed_6c_branch1x1_conv);  mixed_6c_branch1x1_conv = None
    relu_40 = torch.nn.functional.relu(mixed_6c_branch1x1_bn, inplace = True);  mixed_6c_branch1x1_bn = None
    mixed_6c_branch7x7_1_conv = self.Mixed_6c.branch7x7_1.conv(cat_4)
    mixed_6c_branch7x7_1_bn = self.Mixed_6c.branch7x7_1.bn(mixed_6c_branch7x7_1_conv);  mixed_6c_branch7x7_1_conv = None
    relu_41 = torch.nn.functional.relu(mixed_6c_branch7x7_1_bn, inplace = True);  mixed_6c_branch7x7_1_bn = None
    mixed_6c_branch7x7_2_conv = self.Mixed_6c.branch7x7_2.conv(relu_41);  relu_41 = None
    mixed_6c_branch7x7_2_bn = self.Mixed_6c.branch7x7_2.bn(mixed_6c_branch7x7_2_conv);  mixed_6c_branch7x7_2_conv = None
    relu_42 = torch.nn.functional.relu(mixed_6c_branch7x7_2_bn, inplace = True);  mixed_6c_branch7x7_2_bn = None
    mixed_6c_branch7x7_3_conv = self.Mixed_6c.branch7x7_3.conv(relu_42);  relu_42 = None
    mixed_6c_branch7x7_3_bn = self.Mixed_6c.branch7x7_3.bn(mixed_6c_branch7x7_3_conv);  mixed_6c_branch7x7_3_conv = None
    relu_43 = torch.nn.functional.relu(mixed_6c_branch7x7_3_bn, inplace = True);  mixed_6c_branch7x7_3_bn = None
    mixed_6c_branch7x7dbl_1_conv = self.Mixed_6c.branch7x7dbl_1.conv(cat_4)
    mixed_6c_branch7x7dbl_1_bn = self.Mixed_6c.branch7x7dbl_1.bn(mixed_6c_branch7x7dbl_1_conv);  mixed_6c_branch7x7dbl_1_conv = None
    relu_44 = torch.nn.functional.relu(mixed_6c_branch7x7dbl_1_bn, inplace = True);  mixed_6c_branch7x7dbl_1_bn = None
    mixed_6c_branch7x7dbl_2_conv = self.Mixed_6c.branch7x7dbl_2.conv(relu_44);  relu_44 = None
    mixed_6c_branch7x7dbl_2_bn = self.Mixed_6c.branch7x7dbl_2.bn(mixed_6c_branch7x7dbl_2_conv);  mixed_6c_branch7x7dbl_2_conv = None
    relu_45 = torch.nn.functional.relu(mixed_6c_branch7x7dbl_2_bn, inplace = True);  mixed_6c_branch7x7dbl_2_bn = None
    mixed_6c_branch7x7dbl_3_conv = self.Mixed_6c.branch7x7dbl_3.conv(relu_45);  relu_45 = None
    mixed_6c_branch7x7dbl_3_bn = self.Mixed_6c.branch7x7dbl_3.bn(mixed_6c_branch7x7dbl_3_conv);  mixed_6c_branch7x7dbl_3_conv = None
    relu_46 = torch.nn.functional.relu(mixed_6c_branch7x7dbl_3_bn, inplace = True);  mixed_6c_branch7x7dbl_3_bn = None
    mixed_6c_branch7x7dbl_4_conv = self.Mixed_6c.branch7x7dbl_4.conv(relu_46);  relu_46 = None
    mixed_6c_branch7x7dbl_4_bn = self.Mixed_6c.branch7x7dbl_4.bn(mixed_6c_branch7x7dbl_4_conv);  mixed_6c_branch7x7dbl_4_conv = None
    relu_47 = torch.nn.functional.relu(mixed_6c_branch7x7dbl_4_bn, inplace = True);  mixed_6c_branch7x7dbl_4_bn = None
    mixed_6c_branch7x7dbl_5_conv = self.Mixed_6c.branch7x7dbl_5.conv(relu_47);  relu_47 = None
    mixed_6c_branch7x7dbl_5_bn = self.Mixed_6c.branch7x7dbl_5.bn(mixed_6c_branch7x7dbl_5_conv);  mixed_6c_branch7x7dbl_5_conv = None
    relu_48 = torch.nn.functional.relu(mixed_6c_branch7x7dbl_5_bn, inplace = True);  mixed_6c_branch7x7dbl_5_bn = None
    avg_pool2d_4 = torch._C._nn.avg_pool2d(cat_4, kernel_size = 3, stride = 1, padding = 1);  cat_4 = None
    mixed_6c_branch_pool_conv = self.Mixed_6c.branch_pool.conv(avg_pool2d_4);  avg_pool2d_4 = None
    mixed_6c_branch_pool_bn = self.Mixed_6c.branch_pool.bn(mixed_6c_branch_pool_conv);  mixed_6c_branch_pool_conv = None
    relu_49 = torch.nn.functional.relu(mixed_6c_branch_pool_bn, inplace = True);  mixed_6c_branch_pool_bn = None
    cat_5 = torch.cat([relu_40, relu_43, relu_48, relu_49], 1);  relu_40 = relu_43 = relu_48 = relu_49 = None
    mixed_6d_branch1x1_conv = self.Mixed_6d.branch1x1.conv(cat_5)
    mixed_6d_branch1x1_bn = self.Mixed_6d.branch1x1.bn(mixed_6d_branch1x1_conv);  mixed_6d_branch1x1_conv = None
    relu_50 = torch.nn.functional.relu(mixed_6d_branch1x1_bn, inplace = True);  mixed_6d_branch1x1_bn = None
    mixed_6d_branch7x7_1_conv = self.Mixed_6d.branch7x7_1.conv(cat_5)
    mixed_6d_branch7x7_1_bn = self.Mixed_6d.branch7x7_1.bn(mixed_6d_branch7x7_1_conv);  mixed_6d_branch7x7_1_conv = None
    relu_51 = torch.nn.functional.relu(mixed_6d_branch7x7_1_bn, inplace = True);  mixed_6d_branch7x7_1_bn = None
    mixed_6d_branch7x7_2_conv = self.Mixed_6d.branch7x7_2.conv(relu_51);  relu_51 = None
    mixed_6d_branch7x7_2_bn = self.Mixed_6d.branch7x7_2.bn(mixed_6d_branch7x7_2_conv);  mixed_6d_branch7x7_2_conv = None
    relu_52 = torch.nn.functional.relu(mixed_6d_branch7x7_2_bn, inplace = True);  mixed_6d_branch7x7_2_bn = None
    mixed_6d_branch7x7_3_conv = self.Mixed_6d.branch7x7_3.conv(relu_52);  relu_52 = None
    mixed_6d_branch7x7_3_bn = self.Mixed_6d.branch7x7_3.bn(mixed_6d_branch7x7_3_conv);  mixed_6d_branch7x7_3_conv = None
    relu_53 = torch.nn.functional.relu(mixed_6d_branch7x7_3_bn, inplace = True);  mixed_6d_branch7x7_3_bn = None
    mixed_6d_branch7x7dbl_1_conv = self.Mixed_6d.branch7x7dbl_1.conv(cat_5)
    mixed_6d_branch7x7dbl_1_bn = self.Mixed_6d.branch7x7dbl_1.bn(mixed_6d_branch7x7dbl_1_conv);  mixed_6d_branch7x7dbl_1_conv = None
    relu_54 = torch.nn.functional.relu(mixed_6d_branch7x7dbl_1_bn, inplace = True);  mixed_6d_branch7x7dbl_1_bn = None
    mixed_6d_branch7x7dbl_2_conv = self.Mixed_6d.branch7x7dbl_2.conv(relu_54);  relu_54 = None
    mixed_6d_branch7x7dbl_2_bn = self.Mixed_6d.branch7x7dbl_2.bn(mixed_6d_branch7x7dbl_2_conv);  mixed_6d_branch7x7dbl_2_conv = None
    relu_55 = torch.nn.functional.relu(mixed_6d_branch7x7dbl_2_bn, inplace = True);  mixed_6d_branch7x7dbl_2_bn = None
    mixed_6d_branch7x7dbl_3_conv = self.Mixed_6d.branch7x7dbl_3.conv(relu_55);  relu_55 = None
    mixed_6d_branch7x7dbl_3_bn = self.Mixed_6d.branch7x7dbl_3.bn(mixed_6d_branch7x7dbl_3_conv);  mixed_6d_branch7x7dbl_3_conv = None
    relu_56 = torch.nn.functional.relu(mixed_6d_branch7x7dbl_3_bn, inplace = True);  mixed_6d_branch7x7dbl_3_bn = None
    mixed_6d_branch7x7dbl_4_conv = self.Mixed_6d.branch7x7dbl_4.conv(relu_56);  relu_56 = None
    mixed_6d_branch7x7dbl_4_bn = self.Mixed_6d.branch7x7dbl_4.bn(mixed_6d_branch7x7dbl_4_conv);  mixed_6d_branch7x7dbl_4_conv = None
    relu_57 = torch.nn.functional.relu(mixed_6d_branch7x7dbl_4_bn, inplace = True);  mixed_6d_branch7x7dbl_4_bn = None
    mixed_6d_branch7x7dbl_5_conv = self.Mixed_6d.branch7x7dbl_5.conv(relu_57);  relu_57 = None
    mixed_6d_branch7x7dbl_5_bn = self.Mixed_6d.branch7x7dbl_5.bn(mixed_6d_branch7x7dbl_5_conv);  mixed_6d_branch7x7dbl_5_conv = None
    relu_58 = torch.nn.functional.relu(mixed_6d_branch7x7dbl_5_bn, inplace = True);  mixed_6d_branch7x7dbl_5_bn = None
    avg_pool2d_5 = torch._C._nn.avg_pool2d(cat_5, kernel_size = 3, stride = 1, padding = 1);  cat_5 = None
    mixed_6d_branch_pool_conv = self.Mixed_6d.branch_pool.conv(avg_pool2d_5);  avg_pool2d_5 = None
    mixed_6d_branch_pool_bn = self.Mixed_6d.branch_pool.bn(mixed_6d_branch_pool_conv);  mixed_6d_branch_pool_conv = None
    relu_59 = torch.nn.functional.relu(mixed_6d_branch_pool_bn, inplace = True);  mixed_6d_branch_pool_bn = None
    cat_6 = torch.cat([relu_50, relu_53, relu_58, relu_59], 1);  relu_50 = relu_53 = relu_58 = relu_59 = None
    mixed_6e_branch1x1_conv = self.Mixed_6e.branch1x1.conv(cat_6)
    mixed_6e_branch1x1_bn = self.Mixed_6e.branch1x1.bn(mixed_6e_branch1x1_conv);  mixed_6e_branch1x1_conv = None
    relu_60 = torch.nn.functional.relu(mixed_6e_branch1x1_bn, inplace = True);  mixed_6e_branch1x1_bn = None
    mixed_6e_branch7x7_1_conv = self.Mixed_6e.branch7x7_1.conv(cat_6)
    mixed_6e_branch7x7_1_bn = self.Mixed_6e.branch7x7_1.bn(mixed_6e_branch7x7_1_conv);  mixed_6e_branch7x7_1_conv = None
    relu_61 = torch.nn.functional.relu(mixed_6e_branch7x7_1_bn, inplace = True);  mixed_6e_branch7x7_1_bn = None
    mixed_6e_branch7x7_2_conv = self.Mixed_6e.branch7x7_2.conv(relu_61);  relu_61 = None
    mixed_6e_branch7x7_2_bn = self.Mixed_6e.branch7x7_2.bn(mixed_6e_branch7x7_2_conv);  mixed_6e_branch7x7_2_conv = None
    relu_62 = torch.nn.functional.relu(mixed_6e_branch7x7_2_bn, inplace = True);  mixed_6e_branch7x7_2_bn = None
    mixed_6e_branch7x7_3_conv = self.Mixed_6e.branch7x7_3.conv(relu_62);  relu_62 = None
    mixed_6e_branch7x7_3_bn = self.Mixed_6e.branch7x7_3.bn(mixed_6e_branch7x7_3_conv);  mixed_6e_branch7x7_3_conv = None
    relu_63 = torch.nn.functional.relu(mixed_6e_branch7x7_3_bn, inplace = True);  mixed_6e_branch7x7_3_bn = None
    mixed_6e_branch7x7dbl_1_conv = self.Mixed_6e.branch7x7dbl_1.conv(cat_6)
    mixed_6e_branch7x7dbl_1_bn = self.Mixed_6e.branch7x7dbl_1.bn(mixed_6e_branch7x7dbl_1_conv);  mixed_6e_branch7x7dbl_1_conv = None
    relu_64 = torch.nn.functional.relu(mixed_6e_branch7x7dbl_1_bn, inplace = True);  mixed_6e_branch7x7dbl_1_bn = None
    mixed_6e_branch7x7dbl_2_conv = self.Mixed_6e.branch7x7dbl_2.conv(relu_64);  relu_64 = None
    mixed_6e_branch7x7dbl_2_bn = self.Mixed_6e.branch7x7dbl_2.bn(mixed_6e_branch7x7dbl_2_conv);  mixed_6e_branch7x7dbl_2_conv = None
    relu_65 = torch.nn.functional.relu(mixed_6e_branch7x7dbl_2_bn, inplace = True);  mixed_6e_branch7x7dbl_2_bn = None
    mixed_6e_branch7x7dbl_3_conv = self.Mixed_6e.branch7x7dbl_3.conv(relu_65);  relu_65 = None
    mixed_6e_branch7x7dbl_3_bn = self.Mixed_6e.branch7x7dbl_3.bn(mixed_6e_branch7x7dbl_3_conv);  mixed_6e_branch7x7dbl_3_conv = None
    relu_66 = torch.nn.functional.relu(mixed_6e_branch7x7dbl_3_bn, inplace = True);  mixed_6e_branch7x7dbl_3_bn = None
    mixed_6e_branch7x7dbl_4_conv = self.Mixed_6e.branch7x7dbl_4.conv(relu_66);  relu_66 = None
    mixed_6e_branch7x7dbl_4_bn = self.Mixed_6e.branch7x7dbl_4.bn(mixed_6e_branch7x7dbl_4_conv);  mixed_6e_branch7x7dbl_4_conv = None
    relu_67 = torch.nn.functional.relu(mixed_6e_branch7x7dbl_4_bn, inplace = True);  mixed_6e_branch7x7dbl_4_bn = None
    mixed_6e_branch7x7dbl_5_conv = self.Mixed_6e.branch7x7dbl_5.conv(relu_67);  relu_67 = None
    mixed_6e_branch7x7dbl_5_bn = self.Mixed_6e.branch7x7dbl_5.bn(mixed_6e_branch7x7dbl_5_conv);  mixed_6e_branch7x7dbl_5_conv = None
    relu_68 = torch.nn.functional.relu(mixed_6e_branch7x7dbl_5_bn, inplace = True);  mixed_6e_branch7x7dbl_5_bn = None
    avg_pool2d_6 = torch._C._nn.avg_pool2d(cat_6, kernel_size = 3, stride = 1, padding = 1);  cat_6 = None
    mixed_6e_branch_pool_conv = self.Mixed_6e.branch_pool.conv(avg_pool2d_6);  avg_pool2d_6 = None
    mixed_6e_branch_pool_bn = self.Mixed_6e.branch_pool.bn(mixed_6e_branch_pool_conv);  mixed_6e_branch_pool_conv = None
    relu_69 = torch.nn.functional.relu(mixed_6e_branch_pool_bn, inplace = True);  mixed_6e_branch_pool_bn = None
    cat_7 = torch.cat([relu_60, relu_63, relu_68, relu_69], 1);  relu_60 = relu_63 = relu_68 = relu_69 = None
    mixed_7a_branch3x3_1_conv = self.Mixed_7a.branch3x3_1.conv(cat_7)
    mixed_7a_branch3x3_1_bn = self.Mixed_7a.branch3x3_1.bn(mixed_7a_branch3x3_1_conv);  mixed_7a_branch3x3_1_conv = None
    relu_70 = torch.nn.functional.relu(mixed_7a_branch3x3_1_bn, inplace = True);  mixed_7a_branch3x3_1_bn = None
    mixed_7a_branch3x3_2_conv = self.Mixed_7a.branch3x3_2.conv(relu_70);  relu_70 = None
    mixed_7a_branch3x3_2_bn = self.Mixed_7a.branch3x3_2.bn(mixed_7a_branch3x3_2_conv);  mixed_7a_branch3x3_2_conv = None
    relu_71 = torch.nn.functional.relu(mixed_7a_branch3x3_2_bn, inplace = True);  mixed_7a_branch3x3_2_bn = None
    mixed_7a_branch7x7x3_1_conv = self.Mixed_7a.branch7x7x3_1.conv(cat_7)
    mixed_7a_branch7x7x3_1_bn = self.Mixed_7a.branch7x7x3_1.bn(mixed_7a_branch7x7x3_1_conv);  mixed_7a_branch7x7x3_1_conv = None
    relu_72 = torch.nn.functional.relu(mixed_7a_branch7x7x3_1_bn, inplace = True);  mixed_7a_branch7x7x3_1_bn = None
    mixed_7a_branch7x7x3_2_conv = self.Mixed_7a.branch7x7x3_2.conv(relu_72);  relu_72 = None
    mixed_7a_branch7x7x3_2_bn = self.Mixed_7a.branch7x7x3_2.bn(mixed_7a_branch7x7x3_2_conv);  mixed_7a_branch7x7x3_2_conv = None
    relu_73 = torch.nn.functional.relu(mixed_7a_branch7x7x3_2_bn, inplace = True);  mixed_7a_branch7x7x3_2_bn = None
    mixed_7a_branch7x7x3_3_conv = self.Mixed_7a.branch7x7x3_3.conv(relu_73);  relu_73 = None
    mixed_7a_branch7x7x3_3_bn = self.Mixed_7a.branch7x7x3_3.bn(mixed_7a_branch7x7x3_3_conv);  mixed_7a_branch7x7x3_3_conv = None
    relu_74 = torch.nn.functional.relu(mixed_7a_branch7x7x3_3_bn, inplace = True);  mixed_7a_branch7x7x3_3_bn = None
    mixed_7a_branch7x7x3_4_conv = self.Mixed_7a.branch7x7x3_4.conv(relu_74);  relu_74 = None
    mixed_7a_branch7x7x3_4_bn = self.Mixed_7a.branch7x7x3_4.bn(mixed_7a_branch7x7x3_4_conv);  mixed_7a_branch7x7x3_4_conv = None
    relu_75 = torch.nn.functional.relu(mixed_7a_branch7x7x3_4_bn, inplace = True);  mixed_7a_branch7x7x3_4_bn = None
    max_pool2d_1 = torch.nn.functional.max_pool2d(cat_7, 3, stride = 2, padding = 0, dilation = 1, ceil_mode = False, return_indices = False);  cat_7 = None
    cat_8 = torch.cat([relu_71, relu_75, max_pool2d_1], 1);  relu_71 = relu_75 = max_pool2d_1 = None
    mixed_7b_branch1x1_conv = self.Mixed_7b.branch1x1.conv(cat_8)
    mixed_7b_branch1x1_bn = self.Mixed_7b.branch1x1.bn(mixed_7b_branch1x1_conv);  mixed_7b_branch1x1_conv = None
    relu_76 = torch.nn.functional.relu(mixed_7b_branch1x1_bn, inplace = True);  mixed_7b_branch1x1_bn = None
    mixed_7b_branch3x3_1_conv = self.Mixed_7b.branch3x3_1.conv(cat_8)
    mixed_7b_branch3x3_1_bn = self.Mixed_7b.branch3x3_1.bn(mixed_7b_branch3x3_1_conv);  mixed_7b_branch3x3_1_conv = None
    relu_77 = torch.nn.functional.relu(mixed_7b_branch3x3_1_bn, inplace = True);  mixed_7b_branch3x3_1_bn = None
    mixed_7b_branch3x3_2a_conv = self.Mixed_7b.branch3x3_2a.conv(relu_77)
    mixed_7b_branch3x3_2a_bn = self.Mixed_7b.branch3x3_2a.bn(mixed_7b_branch3x3_2a_conv);  mixed_7b_branch3x3_2a_conv = None
    relu_78 = torch.nn.functional.relu(mixed_7b_branch3x3_2a_bn, inplace = True);  mixed_7b_branch3x3_2a_bn = None
    mixed_7b_branch3x3_2b_conv = self.Mixed_7b.branch3x3_2b.conv(relu_77);  relu_77 = None
    mixed_7b_branch3x3_2b_bn = self.Mixed_7b.branch3x3_2b.bn(mixed_7b_branch3x3_2b_conv);  mixed_7b_branch3x3_2b_conv = None
    relu_79 = torch.nn.functional.relu(mixed_7b_branch3x3_2b_bn, inplace = True);  mixed_7b_branch3x3_2b_bn = None
    cat_9 = torch.cat([relu_78, relu_79], 1);  relu_78 = relu_79 = None
    mixed_7b_branch3x3dbl_1_conv = self.Mixed_7b.branch3x3dbl_1.conv(cat_8)
    mixed_7b_branch3x3dbl_1_bn = self.Mixed_7b.branch3x3dbl_1.bn(mixed_7b_branch3x3dbl_1_conv);  mixed_7b_branch3x3dbl_1_conv = None
    relu_80 = torch.nn.functional.relu(mixed_7b_branch3x3dbl_1_bn, inplace = True);  mixed_7b_branch3x3dbl_1_bn = None
    mixed_7b_branch3x3dbl_2_conv = self.Mixed_7b.branch3x3dbl_2.conv(relu_80);  relu_80 = None
    mixed_7b_branch3x3dbl_2_bn = self.Mixed_7b.branch3x3dbl_2.bn(mixed_7b_branch3x3dbl_2_conv);  mixed_7b_branch3x3dbl_2_conv = None
    relu_81 = torch.nn.functional.relu(mixed_7b_branch3x3dbl_2_bn, inplace = True);  mixed_7b_branch3x3dbl_2_bn = None
    mixed_7b_branch3x3dbl_3a_conv = self.Mixed_7b.branch3x3dbl_3a.conv(relu_81)
    mixed_7b_branch3x3dbl_3a_bn = self.Mixed_7b.branch3x3dbl_3a.bn(mixed_7b_branch3x3dbl_3a_conv);  mixed_7b_branch3x3dbl_3a_conv = None
    relu_82 = torch.nn.functional.relu(mixed_7b_branch3x3dbl_3a_bn, inplace = True);  mixed_7b_branch3x3dbl_3a_bn = None
    mixed_7b_branch3x3dbl_3b_conv = self.Mixed_7b.branch3x3dbl_3b.conv(relu_81);  relu_81 = None
    mixed_7b_branch3x3dbl_3b_bn = self.Mixed_7b.branch3x3dbl_3b.bn(mixed_7b_branch3x3dbl_3b_conv);  mixed_7b_branch3x3dbl_3b_conv = None
    relu_83 = torch.nn.functional.relu(mixed_7b_branch3x3dbl_3b_bn, inplace = True);  mixed_7b_branch3x3dbl_3b_bn = None
    cat_10 = torch.cat([relu_82, relu_83], 1);  relu_82 = relu_83 = None
    avg_pool2d_7 = torch._C._nn.avg_pool2d(cat_8, kernel_size = 3, stride = 1, padding = 1);  cat_8 = None
    mixed_7b_branch_pool_conv = self.Mixed_7b.branch_pool.conv(avg_pool2d_7);  avg_pool2d_7 = None
    mixed_7b_branch_pool_bn = self.Mixed_7b.branch_pool.bn(mixed_7b_branch_pool_conv);  mixed_7b_branch_pool_conv = None
    relu_84 = torch.nn.functional.relu(mixed_7b_branch_pool_bn, inplace = True);  mixed_7b_branch_pool_bn = None
    cat_11 = torch.cat([relu_76, cat_9, cat_10, relu_84], 1);  relu_76 = cat_9 = cat_10 = relu_84 = None
    mixed_7c_branch1x1_conv = self.Mixed_7c.branch1x1.conv(cat_11)
    mixed_7c_branch1x1_bn = self.Mixed_7c.branch1x1.bn(mixed_7c_branch1x1_conv);  mixed_7c_branch1x1_conv = None
    relu_85 = torch.nn.functional.relu(mixed_7c_branch1x1_bn, inplace = True);  mixed_7c_branch1x1_bn = None
    mixed_7c_branch3x3_1_conv = self.Mixed_7c.branch3x3_1.conv(cat_11)
    mixed_7c_branch3x3_1_bn = self.Mixed_7c.branch3x3_1.bn(mixed_7c_branch3x3_1_conv);  mixed_7c_branch3x3_1_conv = None
    relu_86 = torch.nn.functional.relu(mixed_7c_branch3x3_1_bn, inplace = True);  mixed_7c_branch3x3_1_bn = None
    mixed_7c_branch3x3_2a_conv = self.Mixed_7c.branch3x3_2a.conv(relu_86)
    mixed_7c_branch3x3_2a_bn = self.Mixed_7c.branch3x3_2a.bn(mixed_7c_branch3x3_2a_conv);  mixed_7c_branch3x3_2a_conv = None
    relu_87 = torch.nn.functional.relu(mixed_7c_branch3x3_2a_bn, inplace = True);  mixed_7c_branch3x3_2a_bn = None
    mixed_7c_branch3x3_2b_conv = self.Mixed_7c.branch3x3_2b.conv(relu_86);  relu_86 = None
    mixed_7c_branch3x3_2b_bn = self.Mixed_7c.branch3x3_2b.bn(mixed_7c_branch3x3_2b_conv);  mixed_7c_branch3x3_2b_conv = None
    relu_88 = torch.nn.functional.relu(mixed_7c_branch3x3_2b_bn, inplace = True);  mixed_7c_branch3x3_2b_bn = None
    cat_12 = torch.cat([relu_87, relu_88], 1);  relu_87 = relu_88 = None
    mixed_7c_branch3x3dbl_1_conv = self.Mixed_7c.branch3x3dbl_1.conv(cat_11)
    mixed_7c_branch3x3dbl_1_bn = self.Mixed_7c.branch3x3dbl_1.bn(mixed_7c_branch3x3dbl_1_conv);  mixed_7c_branch3x3dbl_1_conv = None
    relu_89 = torch.nn.functional.relu(mixed_7c_branch3x3dbl_1_bn, inplace = True);  mixed_7c_branch3x3dbl_1_bn = None
    mixed_7c_branch3x3dbl_2_conv = self.Mixed_7c.branch3x3dbl_2.conv(relu_89);  relu_89 = None
    mixed_7c_branch3x3dbl_2_bn = self.Mixed_7c.branch3x3dbl_2.bn(mixed_7c_branch3x3dbl_2_conv);  mixed_7c_branch3x3dbl_2_conv = None
    relu_90 = torch.nn.functional.relu(mixed_7c_branch3x3dbl_2_bn, inplace = True);  mixed_7c_branch3x3dbl_2_bn = None
    mixed_7c_branch3x3dbl_3a_conv = self.Mixed_7c.branch3x3dbl_3a.conv(relu_90)
    mixed_7c_branch3x3dbl_3a_bn = self.Mixed_7c.branch3x3dbl_3a.bn(mixed_7c_branch3x3dbl_3a_conv);  mixed_7c_branch3x3dbl_3a_conv = None
    relu_91 = torch.nn.functional.relu(mixed_7c_branch3x3dbl_3a_bn, inplace = True);  mixed_7c_branch3x3dbl_3a_bn = None
    mixed_7c_branch3x3dbl_3b_conv = self.Mixed_7c.branch3x3dbl_3b.conv(relu_90);  relu_90 = None
    mixed_7c_branch3x3dbl_3b_bn = self.Mixed_7c.branch3x3dbl_3b.bn(mixed_7c_branch3x3dbl_3b_conv);  mixed_7c_branch3x3dbl_3b_conv = None
    relu_92 = torch.nn.functional.relu(mixed_7c_branch3x3dbl_3b_bn, inplace = True);  mixed_7c_branch3x3dbl_3b_bn = None
    cat_13 = torch.cat([relu_91, relu_92], 1);  relu_91 = relu_92 = None
    avg_pool2d_8 = torch._C._nn.avg_pool2d(cat_11, kernel_size = 3, stride = 1, padding = 1);  cat_11 = None
    mixed_7c_branch_pool_conv = self.Mixed_7c.branch_pool.conv(avg_pool2d_8);  avg_pool2d_8 = None
    mixed_7c_branch_pool_bn = self.Mixed_7c.branch_pool.bn(mixed_7c_branch_pool_conv);  mixed_7c_branch_pool_conv = None
    relu_93 = torch.nn.functional.relu(mixed_7c_branch_pool_bn, inplace = True);  mixed_7c_branch_pool_bn = None
    cat_14 = torch.cat([relu_85, cat_12, cat_13, relu_93], 1);  relu_85 = cat_12 = cat_13 = relu_93 = None
    avgpool = self.avgpool(cat_14);  cat_14 = None
    dropout = self.dropout(avgpool);  avgpool = None
    flatten = torch.flatten(dropout, 1);  dropout = None
    fc = self.fc(flatten);  flatten = None
    return fc
