import torch
import torch.nn as nn

class M(nn.Module):
    def forward(self, x):
        def inner(a, *, b):
            return a + b
        return inner(x, c=1)
