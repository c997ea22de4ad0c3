import torch
import torch.nn as nn

k = 1


def never_called():
    k = 2
    global k
    return k


class M(nn.Module):
    def forward(self, x):
        return x + k
