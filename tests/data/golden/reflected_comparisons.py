import torch
import torch.nn as nn


class ReflectedComparisons(nn.Module):
    def forward(self, x):
        a = 1 < x
        b = 1 <= x
        c = 1 > x
        d = 1 >= x
        e = 1 == x
        f = 1 != x
        return (a, b, c, d, e, f)
