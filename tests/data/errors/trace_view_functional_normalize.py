import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def forward(self, x):
        # t / its norm: the transposed layout kept
        t = torch.ones(3, 4).t()
        return x + F.normalize(t).view(12)
