import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        bias = torch.stack([torch.ones(2), torch.zeros])
        return x + bias
