# at: sigmoid
import torch


def forward(x):
    out = torch.sigmoid(x)
    return out


def pattern(a):
    return torch.relu(a)
