import torch
import torch.nn as nn


class GetitemIntSlice(nn.Module):
    def forward(self, x):
        a = x[0]
        b = x[-1]
        c = x[1:3]
        d = x[::2]
        e = x[:-1]
        f = x[1:]
        g = x[:]
        return a, b, c, d, e, f, g
