import torch
import torch.nn as nn


def count(x):
    # k is assigned (a for's target), never read, before the declaration
    for k in range(2):
        x = x + 1
    global k
    return x


class M(nn.Module):
    def forward(self, x):
        return count(x)
