import torch
import torch.nn as nn


class Inner(nn.Module):
    def forward(self, x, y=None, scale=1.0, bias=0.0):
        if y is not None:
            x = x + y
        return x * scale + bias


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = Inner()

    def forward(self, *args, **kwargs):
        return self.inner(*args, **kwargs)
