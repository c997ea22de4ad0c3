import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def forward(self, x):
        # size and scale_factor both
        t = torch.ones(1, 2, 3)
        return x + F.interpolate(t, 6, 2.0)
