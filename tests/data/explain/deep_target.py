# at: sum_1
import torch


def forward(x, w):
    n = torch.neg(w)
    c = torch.cat([n, x])
    return c.sum()


def pattern(a1, a2):
    v = torch.abs(a1)
    return torch.cat([v, a2]).sum()
