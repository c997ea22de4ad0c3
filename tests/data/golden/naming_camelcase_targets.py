import torch
import torch.nn as nn


class NamingCamelCase(nn.Module):
    def __init__(self):
        super().__init__()
        self.myLayer = nn.ReLU()
        self.HTTPThing = nn.ReLU()
        self.weightA = nn.Parameter(torch.ones(2))
        self.conv_01 = nn.ReLU()
        self.x2D = nn.ReLU()
        self.NoneType = nn.ReLU()

    def forward(self, x, layerIn):
        a = self.myLayer(x)
        b = self.HTTPThing(a)
        c = self.conv_01(b) * self.weightA
        d = self.x2D(c)
        e = self.NoneType(d)
        return e + layerIn
