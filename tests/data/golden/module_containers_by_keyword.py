import torch
import torch.nn as nn


class Mixer(nn.Module):
    def __init__(self):
        super().__init__()
        # the containers' iterables given by keyword, or None: empty
        self.layers = nn.ModuleList(modules=[nn.Linear(4, 4), nn.ReLU()])
        self.heads = nn.ModuleDict(modules={"a": nn.Linear(4, 2)})
        self.scales = nn.ParameterList(values=[nn.Parameter(torch.ones(4))])
        self.extra = nn.ModuleList(None)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        for layer in self.extra:
            x = layer(x)
        return self.heads["a"](x * self.scales[0])
