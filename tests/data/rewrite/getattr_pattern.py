# graft-args: --pattern ScaleByW
import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.ones(3))
        self.v = torch.nn.Parameter(torch.ones(3))

    def forward(self, x):
        a = x * self.w
        b = a * self.v
        return b + 1


class ScaleByW(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.ones(3))

    def forward(self, x):
        return x * self.w


def replacement(x):
    return x.mul(2.0)
