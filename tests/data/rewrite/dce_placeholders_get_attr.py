# graft-args: --dce
# An unused get_attr node goes (a parameter, a buffer, a sub-module's parameter read and
# dropped); used ones stay; unused placeholders always stay, with or without a default.
import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.ones(3))
        self.v = torch.nn.Parameter(torch.ones(3))
        self.register_buffer("b", torch.zeros(3))
        self.lin = torch.nn.Linear(3, 3)

    def forward(self, x, y, z=None):
        unused_v = self.v
        unused_b = self.b + 1
        unused_weight = self.lin.weight
        return torch.neg(x) * self.w


def pattern(p):
    return torch.neg(p)


def replacement(p):
    return p * -1
