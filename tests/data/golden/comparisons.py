import torch
import torch.nn as nn


class Comparisons(nn.Module):
    def forward(self, x, y):
        return [x == y, x != y, x < y, x <= y, x > 0, x >= 0.5]
