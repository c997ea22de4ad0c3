import torch
import torch.nn as nn


class LiteralMisc(nn.Module):
    def forward(self, x):
        a = x.foo(True, False)
        b = x.foo(None)
        c = x.foo(...)
        d = x * 1j
        e = x + (2 + 3j)
        f = x.foo(Ellipsis, flag=None)
        return a, b, c, d, e, f
