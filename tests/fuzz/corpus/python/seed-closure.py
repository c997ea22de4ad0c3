import torch
import torch.nn as nn


def make_scaler(k):
    def scale(t):
        return t * k
    return scale


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.scale = make_scaler(3)

    def forward(self, x):
        bias = 0.5

        def shift(t):
            return t + bias

        def both(t):
            return shift(self.scale(t))

        return both(self.lin(x))
