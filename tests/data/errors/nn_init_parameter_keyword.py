import torch
import torch.nn as nn


class Bias(nn.Module):
    def __init__(self):
        super().__init__()
        # Parameter.__new__(cls, data=None, requires_grad=True)
        self.b = nn.Parameter(torch.zeros(8), grad=False)

    def forward(self, x):
        return x + self.b
