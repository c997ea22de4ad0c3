# graft-args: --ignore-literals
import torch
import torch.nn.functional as F


class M(torch.nn.Module):
    def forward(self, x):
        a = F.interpolate(x, size=(4, 4), mode='nearest')
        b = F.interpolate(a, size=(8, 8, 8), mode='bilinear')
        c = F.interpolate(b, scale_factor=2.0, mode='nearest')
        return c


def pattern(x):
    return F.interpolate(x, size=(1, 1), mode='bicubic')


def replacement(x):
    return F.interpolate(x, scale_factor=2.0)
