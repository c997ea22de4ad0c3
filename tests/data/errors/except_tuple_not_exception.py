import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        try:
            y = x + 1
        except torch.nn.Module:
            y = x + 2
        try:
            raise ValueError("v")
        except (KeyError, torch.nn.Module):
            y = x + 3
        except ValueError:
            y = y + 4
        return y
