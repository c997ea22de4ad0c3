# graft-args: --pattern ScaleByWeight
import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.ones(3))

    def forward(self, x):
        return x * self.w


class ScaleByWeight(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = torch.nn.Parameter(torch.ones(3))

    def forward(self, x):
        return x * self.weight


def replacement(x):
    return x.mul(2.0)
