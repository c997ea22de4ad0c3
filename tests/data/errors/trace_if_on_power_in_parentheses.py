import torch


def forward(x):
    if (x) ** 2:
        return x
    return x
