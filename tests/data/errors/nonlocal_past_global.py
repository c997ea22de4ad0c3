import torch
import torch.nn as nn

k = 5


def outer():
    k = 0

    def middle():
        global k

        def inner():
            # middle's `global k` hides outer's k from a nonlocal
            nonlocal k
            k = 1

        return inner

    return middle


class M(nn.Module):
    def forward(self, x):
        return x + k
