import torch
import torch.nn as nn


class ModuleListLoop(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])
        self.acts = nn.ModuleList([nn.ReLU(), nn.GELU()])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        for i, act in enumerate(self.acts):
            x = act(x) + i
        x = self.layers[1](x)
        return x
