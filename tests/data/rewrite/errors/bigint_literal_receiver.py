import torch
import torch.nn as nn
import torch.nn.functional as F
import math
import operator


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.big = 100000000000000000000

    def forward(self, x):
        h = x
        z = self.big * h
        return (z,)


def pattern(p0, p1):
    h = p1 * p0
    return h


def replacement(p0, p1):
    h = p1 <= p1.unsqueeze(1)
    return h
