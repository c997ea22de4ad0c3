import torch
import torch.nn as nn

class M(nn.Module):
    def forward(self, x):
        g = lambda a: a
        return g(x, 2)
