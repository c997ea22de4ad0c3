import functools
from functools import partial

import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        norm = partial(nn.LayerNorm, eps=1e-6)
        self.norm = norm(8)
        self.proj = functools.partial(nn.Linear, bias=False)(8, 8)
        self.act = partial(F.gelu, approximate="tanh")
        self.scale = partial(torch.mul, other=2.0)

    def forward(self, x):
        y = self.act(self.proj(self.norm(x)))
        if self.proj.bias is None and self.norm.eps < 1e-5:
            y = y * 3
        z = partial(F.softmax, dim=-1)(y)
        return self.scale(z)
