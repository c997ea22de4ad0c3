import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, dim, *, hidden=None, act=nn.GELU, **kwargs):
        super().__init__()
        hidden = hidden or dim * 2
        self.fc1 = nn.Linear(dim, hidden, **kwargs)
        self.act = act()
        self.fc2 = nn.Linear(hidden, dim, **kwargs)

    def forward(self, x):
        return self.fc2(self.act(self.fc1(x)))


class M(nn.Module):
    def __init__(self, **cfg):
        super().__init__()
        self.block = Block(4, **{"hidden": 6, "bias": False}, **cfg)

    def forward(self, x):
        return self.block(x)
