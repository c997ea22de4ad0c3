# graft-args: --dce
# In-place calls that nothing uses go in both torches: call_method nodes are never impure
# (`x.add_(y)`), and torch-level functions have no `_schema` (`torch.relu_`,
# `F.relu(..., inplace=True)`, `torch.sigmoid_`); an in-place result that is used stays.
import torch
import torch.nn.functional as F


class M(torch.nn.Module):
    def forward(self, x, y):
        x.add_(y)
        torch.relu_(x)
        F.relu(y, inplace=True)
        torch.sigmoid_(y)
        x.mul_(2).clamp_(0, 1)
        z = x.sub_(1)
        return torch.neg(z)


def pattern(p):
    return torch.neg(p)


def replacement(p):
    return torch.abs(p)
