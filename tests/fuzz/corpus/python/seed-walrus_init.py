import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self, sizes=(4, 8, 16)):
        super().__init__()
        layers = []
        prev = 4
        for s in sizes:
            if (n := s * 2) > 8:
                layers.append(nn.Linear(prev, n))
                prev = n
        self.layers = nn.ModuleList(layers)
        self.out_dim = prev

    def forward(self, x):
        for layer in self.layers:
            x = layer(x).relu()
        return x
