import math
import torch
import torch.nn as nn


class GlobalCollision(nn.Module):
    def __init__(self):
        super().__init__()
        self.math_sqrt = nn.ReLU()

    def forward(self, x):
        a = math.sqrt(x.size(0))
        b = self.math_sqrt(x)
        return b * a
