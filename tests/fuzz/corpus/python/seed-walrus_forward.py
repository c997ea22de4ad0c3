import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.depth = 3

    def forward(self, x):
        y = (h := self.lin(x)) + h.sigmoid()
        if (d := self.depth) > 2:
            y = y * d
        return [z := y.tanh(), z + 1]
