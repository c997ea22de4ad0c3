import torch
import torch.nn as nn

class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])
        self.scales = nn.ParameterList([nn.Parameter(torch.ones(4)) for _ in range(2)])

    def forward(self, x):
        for layer, s in zip(self.layers, self.scales):
            x = layer(x) * s
        for i, s in enumerate(self.scales):
            x = x + s * i
        return x, [n for n, b in self.named_buffers()], list(dict(self.named_parameters()))
