import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        n = 0
        assert n == 1 and n == 0, "both"
        return x
