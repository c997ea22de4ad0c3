import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.proj = nn.Linear(dim, dim) if dim > 4 else nn.Identity()
        self.norm = nn.LayerNorm(dim) if 2 <= dim <= 16 else None

    def forward(self, x):
        x = self.proj(x)
        x = self.norm(x) if self.norm is not None else x
        return x
