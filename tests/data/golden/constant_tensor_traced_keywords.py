import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("b", torch.ones(4))
        self.register_buffer("mask", torch.zeros(4))

    def forward(self, x):
        a = self.b.add(other=x)
        s = self.b.sub(other=x, alpha=2)
        m = self.mask.masked_fill(mask=x > 0, value=x.size(0))
        n = self.mask.masked_fill(x < 0, value=-1.0)
        t = self.b.type_as(other=x)
        v = self.b.view_as(other=x)
        e = self.b.eq(other=x)
        w = self.b.maximum(other=x)
        self.b.add_(other=x)
        d = self.b.div(x, rounding_mode="floor")
        return a, s, m, n, t, v, e, w, d
