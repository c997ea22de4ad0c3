import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self, n=3):
        super().__init__()
        self.n = n
        for i in range(n):
            setattr(self, f"layer{i}", nn.Linear(4, 4))
            self.add_module(f"norm{i}", nn.LayerNorm(4))

    def forward(self, x):
        for i in range(self.n):
            x = getattr(self, f"norm{i}")(getattr(self, f"layer{i}")(x))
        return x
