import torch
import torch.nn as nn


class BinaryOps(nn.Module):
    def forward(self, x, y):
        a = x + y
        b = x - y
        c = x * y
        d = x / y
        e = x // y
        f = x % y
        g = x ** y
        h = x @ y
        i = x << y
        j = x >> y
        k = x & y
        l = x | y
        m = x ^ y
        return a, b, c, d, e, f, g, h, i, j, k, l, m
