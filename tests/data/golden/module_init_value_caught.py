import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self, p=1.5, heads=3):
        super().__init__()
        # torch.nn's constructors raise on these values; the model falls back
        try:
            self.drop = nn.Dropout(p)
        except ValueError:
            self.drop = nn.Identity()
        try:
            self.attn = nn.MultiheadAttention(8, heads)
        except (AssertionError, ValueError) as e:
            self.attn = None
            self.reason = str(e)
        self.proj = nn.Linear(8, 8)
        self.norm = nn.BatchNorm1d(0)

    def forward(self, x):
        x = self.drop(self.proj(x))
        if self.attn is None:
            x = x * len(self.reason)
        return x
