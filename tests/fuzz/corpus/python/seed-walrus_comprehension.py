import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])

    def forward(self, x):
        outs = [y for b in self.blocks if (y := b(x)) is not None]
        total = 0
        scaled = [total := total + i for i in range(4)]
        return torch.stack(outs).sum(0) * total + scaled[-1]
