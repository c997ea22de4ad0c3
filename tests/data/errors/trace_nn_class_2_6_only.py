import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        # nn.RMSNorm is new in torch 2.4: torch 2.6 traces this, torch 1.13.1
        # raises AttributeError (the names of each dialect's torch.nn say).
        self.norm = nn.RMSNorm(4)

    def forward(self, x):
        return self.norm(x)
