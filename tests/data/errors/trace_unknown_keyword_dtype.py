import torch
import torch.nn as nn


class Net(nn.Module):
    def forward(self, x):
        # no parameter of ones() is named int64
        return x + torch.ones(3, int64=torch.int64)
