import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self, dim=8, heads=2):
        super().__init__()
        assert dim % heads == 0, f"dim {dim} must be divisible by heads {heads}"
        assert heads > 0, f"{heads=}"
        self.heads = heads
        self.lin = nn.Linear(dim, dim)
        self.name = f"attn_{dim:03d}_{heads!r}"

    def forward(self, x):
        assert self.heads == 2, f"expected 2 heads, got {self.heads}"
        return self.lin(x)
