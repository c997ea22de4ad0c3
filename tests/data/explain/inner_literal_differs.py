# at: relu
import torch


def forward(x):
    r = torch.relu(x)
    a = r + 2
    return torch.neg(a)


def pattern(x):
    r = torch.relu(x)
    a = r + 1
    return torch.neg(a)
