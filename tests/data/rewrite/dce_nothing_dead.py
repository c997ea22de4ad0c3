# graft-args: --dce
# Every node is used: dead code elimination changes nothing.
import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.ones(3))

    def forward(self, x, y):
        a = torch.relu(torch.neg(x))
        b = a * self.w + y
        return torch.relu(torch.neg(b)), a


def pattern(p):
    return torch.relu(torch.neg(p))


def replacement(p):
    return torch.relu(-p)
