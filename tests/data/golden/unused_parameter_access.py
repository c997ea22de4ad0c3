import torch
import torch.nn as nn


class UnusedParameterAccess(nn.Module):
    def __init__(self):
        super().__init__()
        self.p = nn.Parameter(torch.ones(3))
        self.q = nn.Parameter(torch.ones(3))
        self.lin = nn.Linear(3, 3)

    def forward(self, x):
        p = self.p
        w = self.lin.weight
        y = x + self.q
        z = y * self.q
        return z
