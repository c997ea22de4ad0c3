import torch
import torch.nn as nn


def pad_to(x, n=4, value=0.0, dims=(1,)):
    return x + value * n + len(dims)


class M(nn.Module):
    def __init__(self, dim=4, heads=2, dropout=0.0, act=None):
        super().__init__()
        self.heads = heads
        self.fc = nn.Linear(dim, dim * heads)
        self.act = act or nn.GELU()
        self.p = dropout

    def forward(self, x, y=None, scale: float = 0.5, n_iter: int = 2, flags=()):
        h = self.act(self.fc(x))
        h = h * scale * n_iter
        for _ in range(self.heads):
            h = h + 1
        if y is not None:
            h = h + y
        if self.p:
            h = -h
        return pad_to(h), pad_to(h, 2, value=1.5), pad_to(h, dims=(0, 1))
