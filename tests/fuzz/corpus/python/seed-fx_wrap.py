import torch
import torch.fx
import torch.nn as nn


def clamp_len(x, n):
    return x[:n] if x.shape[0] > n else x


torch.fx.wrap("clamp_len")


class M(nn.Module):
    def forward(self, x):
        return clamp_len(x, 3).relu()
