import math
import torch
import torch.nn as nn


class LiteralFloats(nn.Module):
    def forward(self, x):
        a = x + 1e-05
        b = x * 1e+20
        c = x + 0.1
        d = x * 2.5
        e = x + float("inf")
        f = x + -math.inf
        g = x * float("nan")
        h = x + 1e17 + 1e16 + 4.0 + 0.0 + -0.0
        i = x * 3.141592653589793 + 1.5e-300 + 123456789.123
        return a, b, c, d, e, f, g, h, i
