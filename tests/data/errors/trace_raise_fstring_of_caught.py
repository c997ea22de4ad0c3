import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        try:
            y = 1 // 0
        except ZeroDivisionError as e:
            raise ValueError(f"bad {e}") from e
        return x
