import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        return torch.cat((t for t in (x, x)), 1)
