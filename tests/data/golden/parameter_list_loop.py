import torch
import torch.nn as nn

class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.ps = nn.ParameterList([nn.Parameter(torch.randn(3)) for _ in range(3)])

    def forward(self, x):
        for p in self.ps:
            x = x + p
        return x * self.ps[0]
