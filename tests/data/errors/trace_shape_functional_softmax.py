import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def forward(self, x):
        # contiguous, of the input's shape
        t = torch.ones(3, 4).t()
        return x + F.softmax(t, dim=-1).view(12).view(13)
