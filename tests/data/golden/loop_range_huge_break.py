import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        n = 0
        for i in range(2**63 - 1):
            n += i
            if i == 3:
                break
        for j in range(-2**63, 2**63 - 1):
            break
        for k in range(10, -10**18, -3):
            n += k
            if n < 0:
                break
        return x + n + j + k
