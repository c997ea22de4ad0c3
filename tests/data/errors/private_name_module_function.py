import torch.nn as nn


def __scale(x):
    return x * 2


class M(nn.Module):
    def forward(self, x):
        # Inside the class `__scale` is `_M__scale`, which is not defined.
        return __scale(x)
