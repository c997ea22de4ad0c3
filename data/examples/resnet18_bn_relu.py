"""Patterns over modules: rewriting resnet18's batch norm and ReLU layers.

resnet18's layers are modules (self.conv1, self.bn1, self.relu, ...), so
symbolic tracing records each call of one as a call_module node whose
target is the module's path in the model: `bn1` for the stem's batch norm,
`layer1.0.bn1` for the first batch norm of the first block of layer1.

A pattern over such nodes is a torch.nn.Module class whose forward calls
its own submodules.  torch.fx matches a call_module node of the pattern
with one of the graph only when their targets are equal: the pattern's
submodule must sit at the same path as the model's.  Its class is never
compared.  So `pattern` below, whose submodules are `bn1` and `relu`,
matches the stem's `bn1` then `relu` and nothing else: in the blocks the
same two layers are `layer1.0.bn1` and `layer1.0.relu`, other targets.
To rewrite those too, write a pattern whose submodules sit there (a
`layer1` holding a child `0` holding `bn1` and `relu`), or select the two
nodes in graft-editor and use Create Pattern from Selection, which writes
that class.

Run it with torch installed to see torch.fx's own result, or open it with
Graft, which reads the same file without running it:

    graft match resnet18_bn_relu.py
    graft rewrite resnet18_bn_relu.py
    graft-editor resnet18_bn_relu.py
"""
import torch
from torch import nn
from torch.fx import replace_pattern, symbolic_trace


class ResNet18(nn.Module):
    """torchvision's resnet18, written out: a stem, four layers of two
    BasicBlocks each, and a classifier."""

    def __init__(self, num_classes=1000):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 64, kernel_size=7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        self.layer1 = nn.Sequential(BasicBlock(64, 64), BasicBlock(64, 64))
        self.layer2 = nn.Sequential(BasicBlock(64, 128, stride=2), BasicBlock(128, 128))
        self.layer3 = nn.Sequential(BasicBlock(128, 256, stride=2), BasicBlock(256, 256))
        self.layer4 = nn.Sequential(BasicBlock(256, 512, stride=2), BasicBlock(512, 512))
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(512, num_classes)

    def forward(self, x):
        x = self.conv1(x)
        x = self.bn1(x)
        x = self.relu(x)
        x = self.maxpool(x)
        x = self.layer1(x)
        x = self.layer2(x)
        x = self.layer3(x)
        x = self.layer4(x)
        x = self.avgpool(x)
        x = torch.flatten(x, 1)
        x = self.fc(x)
        return x


class BasicBlock(nn.Module):
    """Two 3x3 convolutions and a shortcut; a 1x1 convolution (downsample)
    makes the shortcut when the block changes the size."""

    def __init__(self, inplanes, planes, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(inplanes, planes, kernel_size=3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(planes, planes, kernel_size=3, stride=1, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.downsample = None
        if stride != 1 or inplanes != planes:
            self.downsample = nn.Sequential(
                nn.Conv2d(inplanes, planes, kernel_size=1, stride=stride, bias=False),
                nn.BatchNorm2d(planes),
            )

    def forward(self, x):
        identity = x
        out = self.conv1(x)
        out = self.bn1(out)
        out = self.relu(out)
        out = self.conv2(out)
        out = self.bn2(out)
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        out = self.relu(out)
        return out


class pattern(nn.Module):
    """The stem's batch norm, then its ReLU.

    The submodules sit at the model's paths, `bn1` and
    `relu`: torch.fx matches a call_module node only by
    its target, the module's path, never by its class."""

    def __init__(self):
        super().__init__()
        self.bn1 = nn.BatchNorm2d(64)
        self.relu = nn.ReLU(inplace=True)

    def forward(self, x):
        return self.relu(self.bn1(x))


class replacement(nn.Module):
    """The same batch norm, then ReLU as a function.

    replace_pattern keeps the model's own `bn1`: where
    the model has a submodule at a path the replacement
    calls, the model's wins over the replacement's."""

    def __init__(self):
        super().__init__()
        self.bn1 = nn.BatchNorm2d(64)

    def forward(self, x):
        return torch.relu(self.bn1(x))


if __name__ == "__main__":
    gm = symbolic_trace(ResNet18())
    replace_pattern(gm, pattern(), replacement())
    print(gm.code)
