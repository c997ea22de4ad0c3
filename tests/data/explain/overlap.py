# at: relu_2
import torch


def forward(x):
    a = torch.relu(x)
    b = torch.relu(a)
    c = torch.relu(b)
    return c


def pattern(x):
    return torch.relu(torch.relu(x))
