import torch
import torch.nn as nn
import torch.nn.functional as F


class Outer(nn.Module):
    def __init__(self):
        super().__init__()
        self.l = MyLinear(3, 3)
        self.inner = Inner()

    def forward(self, x):
        return self.inner(self.l(x))


class MyLinear(nn.Linear):
    pass


class Inner(nn.Module):
    def __init__(self):
        super().__init__()
        self.gain = nn.Parameter(torch.ones(3))

    def forward(self, x):
        return F.relu(x) * self.gain
