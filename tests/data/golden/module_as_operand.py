import torch
import torch.nn as nn


class Mixer(nn.Module):
    """A module used as an operand: torch.fx records a get_attr of its path
    (a new one at each use) and the operator, which would fail when run."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.blocks = nn.ModuleList([nn.ReLU(), nn.Tanh()])
        self.inner = Inner()

    def forward(self, x):
        a = x + self.lin
        b = self.lin * a
        c = a.add(self.blocks[1])
        return (b, c == self.inner.proj)


class Inner(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x):
        return self.proj(x)
