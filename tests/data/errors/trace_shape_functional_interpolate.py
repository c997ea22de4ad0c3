import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def forward(self, x):
        # floor(size * scale) per spatial dim
        t = torch.ones(1, 2, 3, 4)
        return x + F.interpolate(t, scale_factor=1.5).view(49)
