import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def forward(self, x):
        # F.silu keeps the transposed layout: view() cannot flatten it
        t = torch.ones(3, 4).t()
        return x + F.silu(t).view(12)
