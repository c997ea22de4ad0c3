import torch
import torch.nn as nn


class TupleUnpacking(nn.Module):
    def forward(self, x):
        a, b = x.chunk(2)
        c, d, e = torch.split(x, 1)
        (f, g), h = x.chunk(2), x
        return a + b + c + d + e + f + g + h
