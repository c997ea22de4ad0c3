import torch
import torch.nn as nn


class Net(nn.Module):
    def forward(self, x):
        # squeeze((0, 2)) keeps the strides of the dims it keeps
        t = torch.ones(1, 3, 4).permute(2, 1, 0)
        return x + t.squeeze((0, 2)).view(12)
