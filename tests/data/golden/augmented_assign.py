import torch
import torch.nn as nn


class AugmentedAssign(nn.Module):
    def forward(self, x, y):
        x += 1
        x -= y
        x *= 2
        x /= y
        x //= 3
        x %= 4
        x **= 2
        x @= y
        x &= y
        x |= y
        x ^= y
        x <<= 1
        x >>= 1
        return x
