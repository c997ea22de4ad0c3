import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        n = 0
        assert n, f"n is {n}"
        return x
