import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    @torch.no_grad()
    def forward(self, x):
        with torch.no_grad():
            y = self.lin(x)
        with torch.enable_grad():
            z = y * 2
        return z
