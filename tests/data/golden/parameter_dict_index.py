import torch
import torch.nn as nn

class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.pd = nn.ParameterDict({"a": nn.Parameter(torch.randn(3)), "b": nn.Parameter(torch.randn(3))})

    def forward(self, x):
        return x + self.pd["a"] * self.pd["b"] + self.pd["a"]
