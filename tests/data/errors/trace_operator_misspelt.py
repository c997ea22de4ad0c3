import torch
import torch.nn as nn
import operator

class M(nn.Module):
    def forward(self, x):
        return operator.addd(x, 1)
