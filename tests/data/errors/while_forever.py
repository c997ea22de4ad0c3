import torch


def forward(x):
    n = 0
    while n < 2:
        x = x.relu()
    return x
