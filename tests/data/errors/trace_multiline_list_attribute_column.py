import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        y = [1,
             2].foo
        return x
