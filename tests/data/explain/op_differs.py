# at: relu
import torch


def forward(x):
    return torch.relu(x)


def pattern(a):
    return a.relu()
