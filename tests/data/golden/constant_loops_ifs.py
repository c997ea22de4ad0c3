import torch
import torch.nn as nn


class ConstantLoopsIfs(nn.Module):
    def __init__(self):
        super().__init__()
        self.depth = 3
        self.use_bias = False

    def forward(self, x):
        for i in range(self.depth):
            x = x * (i + 1)
        if self.use_bias:
            x = x + 100
        else:
            x = x - 1
        n = 0
        while n < 2:
            x = x.relu()
            n += 1
        if self.training:
            x = x + 0.5
        return x
