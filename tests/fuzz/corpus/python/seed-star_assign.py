import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.dims = [8, 16, 32, 4]
        first, *hidden, last = self.dims
        self.inp = nn.Linear(4, first)
        self.hid = nn.ModuleList([nn.Linear(a, b) for a, b in zip([first, *hidden], [*hidden, last])])

    def forward(self, x):
        x = self.inp(x)
        *init, tail = self.hid
        for h in init:
            x = h(x).relu()
        a, *b = x.chunk(3, dim=-1) if False else (x, x, x)
        return tail(a) + len(b)
