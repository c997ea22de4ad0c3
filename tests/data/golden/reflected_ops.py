import torch
import torch.nn as nn


class ReflectedOps(nn.Module):
    def forward(self, x):
        a = 2 + x
        b = 2 - x
        c = 3 * x
        d = 1 / x
        e = 7 // x
        f = 5 % x
        g = 2 ** x
        h = 1 << x
        i = 8 >> x
        j = 1 & x
        k = 1 | x
        l = 1 ^ x
        return a + b + c + d + e + f + g + h + i + j + k + l
