import torch
import torch.nn as nn


class Net(nn.Module):
    def forward(self, x):
        # the upper bound does not broadcast with the input and the lower one
        t = torch.ones(3, 4)
        return x + t.clamp(torch.zeros(3, 4), torch.ones(2, 4))
