import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def forward(self, x):
        # bilinear needs a 4-D input
        t = torch.ones(1, 2, 3)
        return x + F.interpolate(t, size=5, mode='bilinear')
