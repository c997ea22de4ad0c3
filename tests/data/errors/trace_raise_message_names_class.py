import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        raise ValueError("TypeError: not this one")
