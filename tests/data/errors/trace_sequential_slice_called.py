import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.seq = nn.Sequential(nn.Linear(4, 4), nn.ReLU())

    def forward(self, x):
        # a slice is a new Sequential, not a submodule of M
        return self.seq[:1](x)
