# graft-args: --pattern conv_bias_pattern --replacement conv_bias_fused
import torch
import torch.nn.functional as F


class M(torch.nn.Module):
    def forward(self, x, w, b):
        y = F.conv2d(x, w) + b.view(1, -1, 1, 1)
        return y


def pattern(x):
    return x


def conv_bias_pattern(x, w, b):
    return F.conv2d(x, w) + b.view(1, -1, 1, 1)


def conv_bias_fused(x, w, b):
    return F.conv2d(x, w, b)
