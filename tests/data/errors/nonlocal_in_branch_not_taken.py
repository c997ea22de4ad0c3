import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        if x is None:
            def g():
                nonlocal zz
                return zz

            return g()
        return x + 1
