import torch
import torch.nn as nn


class ModuleDictCase(nn.Module):
    def __init__(self):
        super().__init__()
        self.branches = nn.ModuleDict({"left": nn.ReLU(), "right": nn.Sigmoid()})
        self.deep = nn.ModuleDict({"a": nn.Sequential(nn.Tanh(), nn.ReLU())})

    def forward(self, x):
        a = self.branches["left"](x)
        b = self.branches["right"](x)
        c = self.deep["a"][0](a)
        outs = [m(b) for m in self.branches.values()]
        return c, outs
