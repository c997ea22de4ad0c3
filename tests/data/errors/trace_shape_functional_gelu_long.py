import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def forward(self, x):
        # no GELU kernel of an integer tensor, in either torch
        t = torch.ones(3, 4, dtype=torch.long)
        return x + F.gelu(t)
