# at: relu_1
import torch


def forward(x):
    a = torch.relu(x)
    b = torch.relu(a)
    return b + a


def pattern(x):
    return torch.relu(torch.relu(x))
