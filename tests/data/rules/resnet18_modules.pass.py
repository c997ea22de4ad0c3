# A torch.fx pass written by Graft from resnet18_modules_rules.py, for torch 1.13.1.
# run(gm) applies the rules of RULES in order, each as one torch.fx.replace_pattern call.
import torch
import torch.fx
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


def _instance(f):
    # A class of RULES stands for an instance made without arguments.
    return f() if isinstance(f, type) else f


def _replace(gm, pattern, replacement):
    try:
        return len(torch.fx.replace_pattern(gm, pattern, replacement))
    except KeyError:
        # torch.fx raises KeyError when an operation of the pattern never occurs
        # in the graph: that is no match.
        return 0


def run(gm: torch.fx.GraphModule) -> torch.fx.GraphModule:
    rules = [(_instance(p), _instance(r)) for p, r in RULES]
    for pattern, replacement in rules:
        _replace(gm, pattern, replacement)
    gm.recompile()
    return gm
