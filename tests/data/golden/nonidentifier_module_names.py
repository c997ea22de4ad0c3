import torch
import torch.nn as nn


class NonIdentifierNames(nn.Module):
    def __init__(self):
        super().__init__()
        self.add_module("1st", nn.ReLU())
        self.add_module("a-b", nn.Tanh())
        self.seq = nn.Sequential(nn.ReLU(), nn.ReLU())

    def forward(self, x):
        a = getattr(self, "1st")(x)
        b = getattr(self, "a-b")(a)
        return self.seq[1](b)
