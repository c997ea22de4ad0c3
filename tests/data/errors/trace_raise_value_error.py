import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        y = x + 1
        raise ValueError("bad")
        return x
