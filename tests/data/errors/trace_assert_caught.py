import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        try:
            assert 1 > 2, "never"
        except AssertionError as e:
            raise ValueError(f"caught: {e.args[0]}")
        return x
