import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        y = ('a'.upper()
             .foo())
        return x
