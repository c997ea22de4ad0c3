import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("mask", torch.tril(torch.ones(8, 8)))
        self.register_buffer("freqs", torch.arange(8.0))
        self.register_buffer("table", torch.zeros(16, 8))

    def forward(self, x, ids):
        T = x.size(1)
        m = self.mask[T]
        rows = self.table[ids]
        cols = self.table[..., T - 1]
        first = self.table[None, T, 0]
        f = self.freqs.to(x.device)
        g = self.freqs.type_as(x).mul(x)
        h = self.mask.masked_fill(x > 0, 0.0)
        self.table.add_(rows)
        k = torch.ones(3)[T]
        return m + f + g + h, rows, cols, first, k
