import torch
import torch.nn as nn


class LiteralInts(nn.Module):
    def forward(self, x):
        a = x + 0
        b = x + -1
        c = x - -1
        d = x * 9223372036854775807
        e = x + -9223372036854775808
        f = x ** -1
        g = x + 0x10 + 0o7 + 0b11 + 1_000
        h = x.view(-1, 2)
        return a, b, c, d, e, f, g, h
