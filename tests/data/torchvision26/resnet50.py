# torchvision 0.21.0 models.resnet50(weights=None).eval(), gm.code of torch.fx.symbolic_trace (torch 2.6.0+debian); made by tests/tools/dump-torchvision.py
import torch
import torch.fx

def forward(self, x : torch.Tensor) -> torch.Tensor:
    conv1 = self.conv1(x);  x = None
    bn1 = self.bn1(conv1);  conv1 = None
    relu = self.relu(bn1);  bn1 = None
    maxpool = self.maxpool(relu);  relu = None
    layer1_0_conv1 = getattr(self.layer1, "0").conv1(maxpool)
    layer1_0_bn1 = getattr(self.layer1, "0").bn1(layer1_0_conv1);  layer1_0_conv1 = None
    layer1_0_relu = getattr(self.layer1, "0").relu(layer1_0_bn1);  layer1_0_bn1 = None
    layer1_0_conv2 = getattr(self.layer1, "0").conv2(layer1_0_relu);  layer1_0_relu = None
    layer1_0_bn2 = getattr(self.layer1, "0").bn2(layer1_0_conv2);  layer1_0_conv2 = None
    layer1_0_relu_1 = getattr(self.layer1, "0").relu(layer1_0_bn2);  layer1_0_bn2 = None
    layer1_0_conv3 = getattr(self.layer1, "0").conv3(layer1_0_relu_1);  layer1_0_relu_1 = None
    layer1_0_bn3 = getattr(self.layer1, "0").bn3(layer1_0_conv3);  layer1_0_conv3 = None
    layer1_0_downsample_0 = getattr(getattr(self.layer1, "0").downsample, "0")(maxpool);  maxpool = None
    layer1_0_downsample_1 = getattr(getattr(self.layer1, "0").downsample, "1")(layer1_0_downsample_0);  layer1_0_downsample_0 = None
    add = layer1_0_bn3 + layer1_0_downsample_1;  layer1_0_bn3 = layer1_0_downsample_1 = None
    layer1_0_relu_2 = getattr(self.layer1, "0").relu(add);  add = None
    layer1_1_conv1 = getattr(self.layer1, "1").conv1(layer1_0_relu_2)
    layer1_1_bn1 = getattr(self.layer1, "1").bn1(layer1_1_conv1);  layer1_1_conv1 = None
    layer1_1_relu = getattr(self.layer1, "1").relu(layer1_1_bn1);  layer1_1_bn1 = None
    layer1_1_conv2 = getattr(self.layer1, "1").conv2(layer1_1_relu);  layer1_1_relu = None
    layer1_1_bn2 = getattr(self.layer1, "1").bn2(layer1_1_conv2);  layer1_1_conv2 = None
    layer1_1_relu_1 = getattr(self.layer1, "1").relu(layer1_1_bn2);  layer1_1_bn2 = None
    layer1_1_conv3 = getattr(self.layer1, "1").conv3(layer1_1_relu_1);  layer1_1_relu_1 = None
    layer1_1_bn3 = getattr(self.layer1, "1").bn3(layer1_1_conv3);  layer1_1_conv3 = None
    add_1 = layer1_1_bn3 + layer1_0_relu_2;  layer1_1_bn3 = layer1_0_relu_2 = None
    layer1_1_relu_2 = getattr(self.layer1, "1").relu(add_1);  add_1 = None
    layer1_2_conv1 = getattr(self.layer1, "2").conv1(layer1_1_relu_2)
    layer1_2_bn1 = getattr(self.layer1, "2").bn1(layer1_2_conv1);  layer1_2_conv1 = None
    layer1_2_relu = getattr(self.layer1, "2").relu(layer1_2_bn1);  layer1_2_bn1 = None
    layer1_2_conv2 = getattr(self.layer1, "2").conv2(layer1_2_relu);  layer1_2_relu = None
    layer1_2_bn2 = getattr(self.layer1, "2").bn2(layer1_2_conv2);  layer1_2_conv2 = None
    layer1_2_relu_1 = getattr(self.layer1, "2").relu(layer1_2_bn2);  layer1_2_bn2 = None
    layer1_2_conv3 = getattr(self.layer1, "2").conv3(layer1_2_relu_1);  layer1_2_relu_1 = None
    layer1_2_bn3 = getattr(self.layer1, "2").bn3(layer1_2_conv3);  layer1_2_conv3 = None
    add_2 = layer1_2_bn3 + layer1_1_relu_2;  layer1_2_bn3 = layer1_1_relu_2 = None
    layer1_2_relu_2 = getattr(self.layer1, "2").relu(add_2);  add_2 = None
    layer2_0_conv1 = getattr(self.layer2, "0").conv1(layer1_2_relu_2)
    layer2_0_bn1 = getattr(self.layer2, "0").bn1(layer2_0_conv1);  layer2_0_conv1 = None
    layer2_0_relu = getattr(self.layer2, "0").relu(layer2_0_bn1);  layer2_0_bn1 = None
    layer2_0_conv2 = getattr(self.layer2, "0").conv2(layer2_0_relu);  layer2_0_relu = None
    layer2_0_bn2 = getattr(self.layer2, "0").bn2(layer2_0_conv2);  layer2_0_conv2 = None
    layer2_0_relu_1 = getattr(self.layer2, "0").relu(layer2_0_bn2);  layer2_0_bn2 = None
    layer2_0_conv3 = getattr(self.layer2, "0").conv3(layer2_0_relu_1);  layer2_0_relu_1 = None
    layer2_0_bn3 = getattr(self.layer2, "0").bn3(layer2_0_conv3);  layer2_0_conv3 = None
    layer2_0_downsample_0 = getattr(getattr(self.layer2, "0").downsample, "0")(layer1_2_relu_2);  layer1_2_relu_2 = None
    layer2_0_downsample_1 = getattr(getattr(self.layer2, "0").downsample, "1")(layer2_0_downsample_0);  layer2_0_downsample_0 = None
    add_3 = layer2_0_bn3 + layer2_0_downsample_1;  layer2_0_bn3 = layer2_0_downsample_1 = None
    layer2_0_relu_2 = getattr(self.layer2, "0").relu(add_3);  add_3 = None
    layer2_1_conv1 = getattr(self.layer2, "1").conv1(layer2_0_relu_2)
    layer2_1_bn1 = getattr(self.layer2, "1").bn1(layer2_1_conv1);  layer2_1_conv1 = None
    layer2_1_relu = getattr(self.layer2, "1").relu(layer2_1_bn1);  layer2_1_bn1 = None
    layer2_1_conv2 = getattr(self.layer2, "1").conv2(layer2_1_relu);  layer2_1_relu = None
    layer2_1_bn2 = getattr(self.layer2, "1").bn2(layer2_1_conv2);  layer2_1_conv2 = None
    layer2_1_relu_1 = getattr(self.layer2, "1").relu(layer2_1_bn2);  layer2_1_bn2 = None
    layer2_1_conv3 = getattr(self.layer2, "1").conv3(layer2_1_relu_1);  layer2_1_relu_1 = None
    layer2_1_bn3 = getattr(self.layer2, "1").bn3(layer2_1_conv3);  layer2_1_conv3 = None
    add_4 = layer2_1_bn3 + layer2_0_relu_2;  layer2_1_bn3 = layer2_0_relu_2 = None
    layer2_1_relu_2 = getattr(self.layer2, "1").relu(add_4);  add_4 = None
    layer2_2_conv1 = getattr(self.layer2, "2").conv1(layer2_1_relu_2)
    layer2_2_bn1 = getattr(self.layer2, "2").bn1(layer2_2_conv1);  layer2_2_conv1 = None
    layer2_2_relu = getattr(self.layer2, "2").relu(layer2_2_bn1);  layer2_2_bn1 = None
    layer2_2_conv2 = getattr(self.layer2, "2").conv2(layer2_2_relu);  layer2_2_relu = None
    layer2_2_bn2 = getattr(self.layer2, "2").bn2(layer2_2_conv2);  layer2_2_conv2 = None
    layer2_2_relu_1 = getattr(self.layer2, "2").relu(layer2_2_bn2);  layer2_2_bn2 = None
    layer2_2_conv3 = getattr(self.layer2, "2").conv3(layer2_2_relu_1);  layer2_2_relu_1 = None
    layer2_2_bn3 = getattr(self.layer2, "2").bn3(layer2_2_conv3);  layer2_2_conv3 = None
    add_5 = layer2_2_bn3 + layer2_1_relu_2;  layer2_2_bn3 = layer2_1_relu_2 = None
    layer2_2_relu_2 = getattr(self.layer2, "2").relu(add_5);  add_5 = None
    layer2_3_conv1 = getattr(self.layer2, "3").conv1(layer2_2_relu_2)
    layer2_3_bn1 = getattr(self.layer2, "3").bn1(layer2_3_conv1);  layer2_3_conv1 = None
    layer2_3_relu = getattr(self.layer2, "3").relu(layer2_3_bn1);  layer2_3_bn1 = None
    layer2_3_conv2 = getattr(self.layer2, "3").conv2(layer2_3_relu);  layer2_3_relu = None
    layer2_3_bn2 = getattr(self.layer2, "3").bn2(layer2_3_conv2);  layer2_3_conv2 = None
    layer2_3_relu_1 = getattr(self.layer2, "3").relu(layer2_3_bn2);  layer2_3_bn2 = None
    layer2_3_conv3 = getattr(self.layer2, "3").conv3(layer2_3_relu_1);  layer2_3_relu_1 = None
    layer2_3_bn3 = getattr(self.layer2, "3").bn3(layer2_3_conv3);  layer2_3_conv3 = None
    add_6 = layer2_3_bn3 + layer2_2_relu_2;  layer2_3_bn3 = layer2_2_relu_2 = None
    layer2_3_relu_2 = getattr(self.layer2, "3").relu(add_6);  add_6 = None
    layer3_0_conv1 = getattr(self.layer3, "0").conv1(layer2_3_relu_2)
    layer3_0_bn1 = getattr(self.layer3, "0").bn1(layer3_0_conv1);  layer3_0_conv1 = None
    layer3_0_relu = getattr(self.layer3, "0").relu(layer3_0_bn1);  layer3_0_bn1 = None
    layer3_0_conv2 = getattr(self.layer3, "0").conv2(layer3_0_relu);  layer3_0_relu = None
    layer3_0_bn2 = getattr(self.layer3, "0").bn2(layer3_0_conv2);  layer3_0_conv2 = None
    layer3_0_relu_1 = getattr(self.layer3, "0").relu(layer3_0_bn2);  layer3_0_bn2 = None
    layer3_0_conv3 = getattr(self.layer3, "0").conv3(layer3_0_relu_1);  layer3_0_relu_1 = None
    layer3_0_bn3 = getattr(self.layer3, "0").bn3(layer3_0_conv3);  layer3_0_conv3 = None
    layer3_0_downsample_0 = getattr(getattr(self.layer3, "0").downsample, "0")(layer2_3_relu_2);  layer2_3_relu_2 = None
    layer3_0_downsample_1 = getattr(getattr(self.layer3, "0").downsample, "1")(layer3_0_downsample_0);  layer3_0_downsample_0 = None
    add_7 = layer3_0_bn3 + layer3_0_downsample_1;  layer3_0_bn3 = layer3_0_downsample_1 = None
    layer3_0_relu_2 = getattr(self.layer3, "0").relu(add_7);  add_7 = None
    layer3_1_conv1 = getattr(self.layer3, "1").conv1(layer3_0_relu_2)
    layer3_1_bn1 = getattr(self.layer3, "1").bn1(layer3_1_conv1);  layer3_1_conv1 = None
    layer3_1_relu = getattr(self.layer3, "1").relu(layer3_1_bn1);  layer3_1_bn1 = None
    layer3_1_conv2 = getattr(self.layer3, "1").conv2(layer3_1_relu);  layer3_1_relu = None
    layer3_1_bn2 = getattr(self.layer3, "1").bn2(layer3_1_conv2);  layer3_1_conv2 = None
    layer3_1_relu_1 = getattr(self.layer3, "1").relu(layer3_1_bn2);  layer3_1_bn2 = None
    layer3_1_conv3 = getattr(self.layer3, "1").conv3(layer3_1_relu_1);  layer3_1_relu_1 = None
    layer3_1_bn3 = getattr(self.layer3, "1").bn3(layer3_1_conv3);  layer3_1_conv3 = None
    add_8 = layer3_1_bn3 + layer3_0_relu_2;  layer3_1_bn3 = layer3_0_relu_2 = None
    layer3_1_relu_2 = getattr(self.layer3, "1").relu(add_8);  add_8 = None
    layer3_2_conv1 = getattr(self.layer3, "2").conv1(layer3_1_relu_2)
    layer3_2_bn1 = getattr(self.layer3, "2").bn1(layer3_2_conv1);  layer3_2_conv1 = None
    layer3_2_relu = getattr(self.layer3, "2").relu(layer3_2_bn1);  layer3_2_bn1 = None
    layer3_2_conv2 = getattr(self.layer3, "2").conv2(layer3_2_relu);  layer3_2_relu = None
    layer3_2_bn2 = getattr(self.layer3, "2").bn2(layer3_2_conv2);  layer3_2_conv2 = None
    layer3_2_relu_1 = getattr(self.layer3, "2").relu(layer3_2_bn2);  layer3_2_bn2 = None
    layer3_2_conv3 = getattr(self.layer3, "2").conv3(layer3_2_relu_1);  layer3_2_relu_1 = None
    layer3_2_bn3 = getattr(self.layer3, "2").bn3(layer3_2_conv3);  layer3_2_conv3 = None
    add_9 = layer3_2_bn3 + layer3_1_relu_2;  layer3_2_bn3 = layer3_1_relu_2 = None
    layer3_2_relu_2 = getattr(self.layer3, "2").relu(add_9);  add_9 = None
    layer3_3_conv1 = getattr(self.layer3, "3").conv1(layer3_2_relu_2)
    layer3_3_bn1 = getattr(self.layer3, "3").bn1(layer3_3_conv1);  layer3_3_conv1 = None
    layer3_3_relu = getattr(self.layer3, "3").relu(layer3_3_bn1);  layer3_3_bn1 = None
    layer3_3_conv2 = getattr(self.layer3, "3").conv2(layer3_3_relu);  layer3_3_relu = None
    layer3_3_bn2 = getattr(self.layer3, "3").bn2(layer3_3_conv2);  layer3_3_conv2 = None
    layer3_3_relu_1 = getattr(self.layer3, "3").relu(layer3_3_bn2);  layer3_3_bn2 = None
    layer3_3_conv3 = getattr(self.layer3, "3").conv3(layer3_3_relu_1);  layer3_3_relu_1 = None
    layer3_3_bn3 = getattr(self.layer3, "3").bn3(layer3_3_conv3);  layer3_3_conv3 = None
    add_10 = layer3_3_bn3 + layer3_2_relu_2;  layer3_3_bn3 = layer3_2_relu_2 = None
    layer3_3_relu_2 = getattr(self.layer3, "3").relu(add_10);  add_10 = None
    layer3_4_conv1 = getattr(self.layer3, "4").conv1(layer3_3_relu_2)
    layer3_4_bn1 = getattr(self.layer3, "4").bn1(layer3_4_conv1);  layer3_4_conv1 = None
    layer3_4_relu = getattr(self.layer3, "4").relu(layer3_4_bn1);  layer3_4_bn1 = None
    layer3_4_conv2 = getattr(self.layer3, "4").conv2(layer3_4_relu);  layer3_4_relu = None
    layer3_4_bn2 = getattr(self.layer3, "4").bn2(layer3_4_conv2);  layer3_4_conv2 = None
    layer3_4_relu_1 = getattr(self.layer3, "4").relu(layer3_4_bn2);  layer3_4_bn2 = None
    layer3_4_conv3 = getattr(self.layer3, "4").conv3(layer3_4_relu_1);  layer3_4_relu_1 = None
    layer3_4_bn3 = getattr(self.layer3, "4").bn3(layer3_4_conv3);  layer3_4_conv3 = None
    add_11 = layer3_4_bn3 + layer3_3_relu_2;  layer3_4_bn3 = layer3_3_relu_2 = None
    layer3_4_relu_2 = getattr(self.layer3, "4").relu(add_11);  add_11 = None
    layer3_5_conv1 = getattr(self.layer3, "5").conv1(layer3_4_relu_2)
    layer3_5_bn1 = getattr(self.layer3, "5").bn1(layer3_5_conv1);  layer3_5_conv1 = None
    layer3_5_relu = getattr(self.layer3, "5").relu(layer3_5_bn1);  layer3_5_bn1 = None
    layer3_5_conv2 = getattr(self.layer3, "5").conv2(layer3_5_relu);  layer3_5_relu = None
    layer3_5_bn2 = getattr(self.layer3, "5").bn2(layer3_5_conv2);  layer3_5_conv2 = None
    layer3_5_relu_1 = getattr(self.layer3, "5").relu(layer3_5_bn2);  layer3_5_bn2 = None
    layer3_5_conv3 = getattr(self.layer3, "5").conv3(layer3_5_relu_1);  layer3_5_relu_1 = None
    layer3_5_bn3 = getattr(self.layer3, "5").bn3(layer3_5_conv3);  layer3_5_conv3 = None
    add_12 = layer3_5_bn3 + layer3_4_relu_2;  layer3_5_bn3 = layer3_4_relu_2 = None
    layer3_5_relu_2 = getattr(self.layer3, "5").relu(add_12);  add_12 = None
    layer4_0_conv1 = getattr(self.layer4, "0").conv1(layer3_5_relu_2)
    layer4_0_bn1 = getattr(self.layer4, "0").bn1(layer4_0_conv1);  layer4_0_conv1 = None
    layer4_0_relu = getattr(self.layer4, "0").relu(layer4_0_bn1);  layer4_0_bn1 = None
    layer4_0_conv2 = getattr(self.layer4, "0").conv2(layer4_0_relu);  layer4_0_relu = None
    layer4_0_bn2 = getattr(self.layer4, "0").bn2(layer4_0_conv2);  layer4_0_conv2 = None
    layer4_0_relu_1 = getattr(self.layer4, "0").relu(layer4_0_bn2);  layer4_0_bn2 = None
    layer4_0_conv3 = getattr(self.layer4, "0").conv3(layer4_0_relu_1);  layer4_0_relu_1 = None
    layer4_0_bn3 = getattr(self.layer4, "0").bn3(layer4_0_conv3);  layer4_0_conv3 = None
    layer4_0_downsample_0 = getattr(getattr(self.layer4, "0").downsample, "0")(layer3_5_relu_2);  layer3_5_relu_2 = None
    layer4_0_downsample_1 = getattr(getattr(self.layer4, "0").downsample, "1")(layer4_0_downsample_0);  layer4_0_downsample_0 = None
    add_13 = layer4_0_bn3 + layer4_0_downsample_1;  layer4_0_bn3 = layer4_0_downsample_1 = None
    layer4_0_relu_2 = getattr(self.layer4, "0").relu(add_13);  add_13 = None
    layer4_1_conv1 = getattr(self.layer4, "1").conv1(layer4_0_relu_2)
    layer4_1_bn1 = getattr(self.layer4, "1").bn1(layer4_1_conv1);  layer4_1_conv1 = None
    layer4_1_relu = getattr(self.layer4, "1").relu(layer4_1_bn1);  layer4_1_bn1 = None
    layer4_1_conv2 = getattr(self.layer4, "1").conv2(layer4_1_relu);  layer4_1_relu = None
    layer4_1_bn2 = getattr(self.layer4, "1").bn2(layer4_1_conv2);  layer4_1_conv2 = None
    layer4_1_relu_1 = getattr(self.layer4, "1").relu(layer4_1_bn2);  layer4_1_bn2 = None
    layer4_1_conv3 = getattr(self.layer4, "1").conv3(layer4_1_relu_1);  layer4_1_relu_1 = None
    layer4_1_bn3 = getattr(self.layer4, "1").bn3(layer4_1_conv3);  layer4_1_conv3 = None
    add_14 = layer4_1_bn3 + layer4_0_relu_2;  layer4_1_bn3 = layer4_0_relu_2 = None
    layer4_1_relu_2 = getattr(self.layer4, "1").relu(add_14);  add_14 = None
    layer4_2_conv1 = getattr(self.layer4, "2").conv1(layer4_1_relu_2)
    layer4_2_bn1 = getattr(self.layer4, "2").bn1(layer4_2_conv1);  layer4_2_conv1 = None
    layer4_2_relu = getattr(self.layer4, "2").relu(layer4_2_bn1);  layer4_2_bn1 = None
    layer4_2_conv2 = getattr(self.layer4, "2").conv2(layer4_2_relu);  layer4_2_relu = None
    layer4_2_bn2 = getattr(self.layer4, "2").bn2(layer4_2_conv2);  layer4_2_conv2 = None
    layer4_2_relu_1 = getattr(self.layer4, "2").relu(layer4_2_bn2);  layer4_2_bn2 = None
    layer4_2_conv3 = getattr(self.layer4, "2").conv3(layer4_2_relu_1);  layer4_2_relu_1 = None
    layer4_2_bn3 = getattr(self.layer4, "2").bn3(layer4_2_conv3);  layer4_2_conv3 = None
    add_15 = layer4_2_bn3 + layer4_1_relu_2;  layer4_2_bn3 = layer4_1_relu_2 = None
    layer4_2_relu_2 = getattr(self.layer4, "2").relu(add_15);  add_15 = None
    avgpool = self.avgpool(layer4_2_relu_2);  layer4_2_relu_2 = None
    flatten = torch.flatten(avgpool, 1);  avgpool = None
    fc = self.fc(flatten);  flatten = None
    return fc
