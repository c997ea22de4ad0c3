import torch
import torch.nn as nn


def a():
    def b():
        nonlocal missing
        return missing

    return b


def c():
    v = 1
    global v
    return v


class M(nn.Module):
    def forward(self, x):
        return x + 1
