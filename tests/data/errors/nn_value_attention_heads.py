import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        # no heads: torch 1.13.1 divides by them, torch 2.6 checks first
        self.layer = nn.MultiheadAttention(4, 0)

    def forward(self, x):
        return self.layer(x, x, x)[0]
