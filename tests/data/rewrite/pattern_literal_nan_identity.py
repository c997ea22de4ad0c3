import math
import torch


class M(torch.nn.Module):
    def forward(self, x):
        n = float('nan')
        return x[1:math.nan].relu(), x[1:torch.nan].relu(), x[1:n].relu(), x[1:math.inf - math.inf].relu(), x[math.nan:2].relu()


def pattern(p):
    return p[1:math.nan].relu()


def replacement(p):
    return p.sigmoid()
