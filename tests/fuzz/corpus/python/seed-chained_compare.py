import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self, dim=8, heads=2):
        super().__init__()
        self.proj = nn.Linear(dim, dim)
        assert 0 < heads <= dim, "bad heads"
        self.ok = 1 <= self.proj.weight.shape[0] == dim < 1024
        self.small = 0 < self.proj.weight.shape[1] < 4

    def forward(self, x):
        y = self.proj(x)
        if self.ok and not self.small:
            y = y * 2
        return y
