import torch
import torch.nn as nn


class M(nn.Module):
    scale = 2

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    @staticmethod
    def act(x):
        return x.relu()

    @classmethod
    def factor(cls):
        return cls.scale * 3

    def forward(self, x):
        return self.act(self.lin(x)) * self.factor() + M.act(x)
