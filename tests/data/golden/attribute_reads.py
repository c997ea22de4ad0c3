import torch
import torch.nn as nn


class AttributeReads(nn.Module):
    def forward(self, x):
        a = x.shape[1] + x.shape[1]
        b = x.T
        c = getattr(x, "foo bar")
        d = x.device
        e = x.ndim
        f = getattr(x, "shape")
        return a, b, c, d, e, f
