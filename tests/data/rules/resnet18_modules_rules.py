# Every batch norm + relu module pair of torchvision's resnet18 (../torchvision/resnet18.py,
# the gm.code of the traced model: `self.layer1...` calls are call_module nodes) -> the same
# batch norm module followed by torch.nn.functional.relu, so that each block's `relu` module is
# left for the activation after the residual sum only.  Case resnet18_modules.
# torch.fx matches a call_module node by its target, the module's path: a pattern class must
# hold its modules at the paths of the model (`bn1`, `relu` for the stem; `layer1.0.bn1`,
# `layer1.0.relu` in the blocks), so there is one rule per pair: the stem, then the eight
# BasicBlocks, reached through an nn.Sequential per layer like torchvision's own.
# What it pins: pattern and replacement classes (instances made without arguments), class
# attributes and getattr() choosing the submodule path, and nine rules with one match each in
# one pass.
import torch
import torch.nn.functional as F


class StemBnRelu(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.bn1 = torch.nn.BatchNorm2d(64)
        self.relu = torch.nn.ReLU(inplace=True)

    def forward(self, x):
        return self.relu(self.bn1(x))


class StemBnFunctionalRelu(StemBnRelu):
    def forward(self, x):
        return F.relu(self.bn1(x), inplace=True)


class BasicBlock(torch.nn.Module):
    """The modules of torchvision's BasicBlock that the pair uses."""

    def __init__(self, planes):
        super().__init__()
        self.bn1 = torch.nn.BatchNorm2d(planes)
        self.relu = torch.nn.ReLU(inplace=True)


class ResNetLayers(torch.nn.Module):
    """layer1 ... layer4 of resnet18, two blocks each: the module paths of the model."""

    def __init__(self):
        super().__init__()
        self.layer1 = torch.nn.Sequential(BasicBlock(64), BasicBlock(64))
        self.layer2 = torch.nn.Sequential(BasicBlock(128), BasicBlock(128))
        self.layer3 = torch.nn.Sequential(BasicBlock(256), BasicBlock(256))
        self.layer4 = torch.nn.Sequential(BasicBlock(512), BasicBlock(512))


class BlockBnRelu(ResNetLayers):
    """The bn1 -> relu pair of block `block` of layer `layer` (set by the subclasses)."""

    def forward(self, x):
        b = getattr(self, self.layer)[self.block]
        return b.relu(b.bn1(x))


class BlockBnFunctionalRelu(BlockBnRelu):
    def forward(self, x):
        b = getattr(self, self.layer)[self.block]
        return F.relu(b.bn1(x), inplace=True)


class Layer1Block0BnRelu(BlockBnRelu):
    layer, block = "layer1", 0


class Layer1Block0BnFunctionalRelu(BlockBnFunctionalRelu):
    layer, block = "layer1", 0


class Layer1Block1BnRelu(BlockBnRelu):
    layer, block = "layer1", 1


class Layer1Block1BnFunctionalRelu(BlockBnFunctionalRelu):
    layer, block = "layer1", 1


class Layer2Block0BnRelu(BlockBnRelu):
    layer, block = "layer2", 0


class Layer2Block0BnFunctionalRelu(BlockBnFunctionalRelu):
    layer, block = "layer2", 0


class Layer2Block1BnRelu(BlockBnRelu):
    layer, block = "layer2", 1


class Layer2Block1BnFunctionalRelu(BlockBnFunctionalRelu):
    layer, block = "layer2", 1


class Layer3Block0BnRelu(BlockBnRelu):
    layer, block = "layer3", 0


class Layer3Block0BnFunctionalRelu(BlockBnFunctionalRelu):
    layer, block = "layer3", 0


class Layer3Block1BnRelu(BlockBnRelu):
    layer, block = "layer3", 1


class Layer3Block1BnFunctionalRelu(BlockBnFunctionalRelu):
    layer, block = "layer3", 1


class Layer4Block0BnRelu(BlockBnRelu):
    layer, block = "layer4", 0


class Layer4Block0BnFunctionalRelu(BlockBnFunctionalRelu):
    layer, block = "layer4", 0


class Layer4Block1BnRelu(BlockBnRelu):
    layer, block = "layer4", 1


class Layer4Block1BnFunctionalRelu(BlockBnFunctionalRelu):
    layer, block = "layer4", 1


RULES = [
    (StemBnRelu, StemBnFunctionalRelu),
    (Layer1Block0BnRelu, Layer1Block0BnFunctionalRelu),
    (Layer1Block1BnRelu, Layer1Block1BnFunctionalRelu),
    (Layer2Block0BnRelu, Layer2Block0BnFunctionalRelu),
    (Layer2Block1BnRelu, Layer2Block1BnFunctionalRelu),
    (Layer3Block0BnRelu, Layer3Block0BnFunctionalRelu),
    (Layer3Block1BnRelu, Layer3Block1BnFunctionalRelu),
    (Layer4Block0BnRelu, Layer4Block0BnFunctionalRelu),
    (Layer4Block1BnRelu, Layer4Block1BnFunctionalRelu),
]
