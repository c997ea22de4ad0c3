import torch
import torch.nn as nn
import torch.nn.functional as F


class Adder(nn.Module):
    def forward(self, *xs):
        out = xs[0]
        for t in xs[1:]:
            out = out + t
        return out


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.add = Adder()
        self.seq = nn.Sequential(nn.Linear(4, 4), nn.ReLU())
        self.norm_args = ((4,), None, None, 1e-5)
        self.interp = dict(scale_factor=2.0, mode="linear")

    def forward(self, x, *rest, **extra):
        ys = [self.seq(x), *rest]
        s = self.add(*ys, x)
        n = F.layer_norm(s, *self.norm_args)
        i = F.interpolate(n.unsqueeze(0), **self.interp)
        return self.add(n, n, *ys), i, len(rest), sorted(extra)
