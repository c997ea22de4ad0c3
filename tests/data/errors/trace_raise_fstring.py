import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        n = 3
        raise RuntimeError(f"expected {n} dims, got {n + 1}")
        return x
