# graft-args: --pattern pattern
# The pattern's function is misspelled: the error points at `patern`.
import torch


class M(torch.nn.Module):
    def forward(self, x):
        return x.relu()


def patern(x):
    return x.relu()


def replacement(a):
    return a.neg()
