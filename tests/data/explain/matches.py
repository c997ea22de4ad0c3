# at: relu_1
import torch


def forward(x):
    a = torch.relu(x)
    return torch.relu(a)


def pattern(x):
    return torch.relu(torch.relu(x))
