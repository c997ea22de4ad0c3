import torch
import torch.nn as nn


def combine(*tensors, dim=0, **opts):
    out = torch.cat(tensors, dim=dim)
    if opts.get("relu"):
        out = out.relu()
    return out


class Inner(nn.Module):
    def forward(self, a, b, *more, alpha=1.0, **kw):
        s = a + b * alpha
        for m in more:
            s = s - m
        return s * kw.get("beta", 1)


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = Inner()

    def forward(self, x, y):
        args = (x, y)
        kw = {"alpha": 2.0, "beta": 3}
        a = self.inner(*args, **kw)
        b = self.inner(x, *[y, x], beta=0.5)
        c = combine(a, b, dim=1, relu=True)
        d = combine(*[a, b], **{"dim": -1})
        return c, d, torch.stack([*args, a], dim=0)
