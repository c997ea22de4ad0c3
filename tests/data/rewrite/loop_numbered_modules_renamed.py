import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.relu = nn.ModuleList([nn.ReLU() for _ in range(4)])

    def forward(self, x):
        for i in range(6):
            x = self.relu[2](x)
            x = torch.sigmoid(x)
        for i in range(3):
            x = self.relu[3](x)
        return x


def pattern(x):
    return torch.sigmoid(x)


def replacement(x):
    return torch.relu(torch.relu(torch.relu(x)))
