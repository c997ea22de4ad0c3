import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def __init__(self, act="relu"):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.act = (lambda t: F.relu(t)) if act == "relu" else (lambda t: t.sigmoid())
        self.scale = lambda t, s=2.0: t * s

    def forward(self, x):
        return self.scale(self.act(self.lin(x)))
