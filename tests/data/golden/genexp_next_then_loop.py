import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        g = (x * i for i in range(3))
        first = next(g)
        for t in g:
            first = first + t
        h = (i for i in range(2))
        s = sorted(set(h))
        e = list(i for i in range(3) if i != 1)
        n = len([*(i for i in range(4))])
        try:
            next(iter(()))
        except StopIteration:
            pass
        z = next((t for t in () ), None)
        return first, s, e, n, z
