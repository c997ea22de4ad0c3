import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        y = torch.ones(2, 3)
        z = (y
             .view(7))
        return x
