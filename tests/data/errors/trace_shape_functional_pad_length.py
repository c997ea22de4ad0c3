import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def forward(self, x):
        # more pads than dims: each torch's error
        t = torch.ones(3, 4)
        return x + F.pad(t, (1, 1, 2, 2, 3, 3))
