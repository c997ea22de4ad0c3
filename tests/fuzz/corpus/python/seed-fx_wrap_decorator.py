import torch
import torch.fx
import torch.nn as nn


@torch.fx.wrap
def scaled(x, s):
    return x * s


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        return scaled(self.lin(x), 2.0) + scaled(x, s=0.5)
