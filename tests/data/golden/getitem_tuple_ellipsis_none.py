import torch
import torch.nn as nn


class GetitemTuple(nn.Module):
    def forward(self, x):
        a = x[:, 0]
        b = x[..., None]
        c = x[None, :, 1:2]
        d = x[0, ..., -1]
        e = x[(1, 2)]
        f = x[:, :, None, ::-1]
        return a, b, c, d, e, f
