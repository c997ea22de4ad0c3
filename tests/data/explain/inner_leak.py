# at: relu
import torch


def forward(x):
    r = torch.relu(x)
    a = r + 1
    n = torch.neg(a)
    return n, a * 2


def pattern(x):
    r = torch.relu(x)
    a = r + 1
    return torch.neg(a)
