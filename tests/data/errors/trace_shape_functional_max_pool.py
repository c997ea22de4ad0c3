import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def forward(self, x):
        # torch's pooling_output_shape(), ceil_mode included
        t = torch.ones(1, 2, 7, 7)
        return x + F.max_pool2d(t, 3, stride=2, padding=1, ceil_mode=True).view(33)
