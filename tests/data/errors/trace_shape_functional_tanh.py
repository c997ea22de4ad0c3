import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def forward(self, x):
        # F.tanh keeps the shape
        t = torch.ones(3, 4)
        return x + F.tanh(t).view(13)
