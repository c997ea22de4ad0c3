import torch
import torch.nn as nn


class Rotary(nn.Module):
    def __init__(self, dim=8):
        inv_freq = 1.0 / (10000 ** (torch.arange(0, dim, 2).float() / dim))
        self.register_buffer("inv_freq", inv_freq)

    def forward(self, x):
        return x * self.inv_freq
