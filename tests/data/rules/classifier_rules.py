# A class pattern next to a function pattern, on torchvision's resnet18 classifier
# (self.avgpool, torch.flatten(x, 1), self.fc).  Case class_and_functions.
# Rule 1 (function -> class) turns the functional flatten into an nn.Flatten module that the
# model does not have: replace_pattern copies it into the model, at `flatten`.  Rule 2
# (class -> function) then matches the pair of modules avgpool -> flatten, which only exists
# once rule 1 has run, and replaces global average pooling with a mean.
import torch


def flatten1(x):
    return torch.flatten(x, 1)


class FlattenModule(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = torch.nn.Flatten()

    def forward(self, x):
        return self.flatten(x)


class PoolFlatten(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.avgpool = torch.nn.AdaptiveAvgPool2d((1, 1))
        self.flatten = torch.nn.Flatten()

    def forward(self, x):
        return self.flatten(self.avgpool(x))


def spatial_mean(x):
    return x.mean([2, 3])


RULES = [
    (flatten1, FlattenModule),
    (PoolFlatten, spatial_mean),
]
