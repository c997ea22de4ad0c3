import torch
import torch.nn as nn


class LoopNumberedModules(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.ReLU() for _ in range(4)])
        self.conv1 = nn.ModuleList([nn.Tanh() for _ in range(3)])
        self.layers_2 = nn.Sigmoid()
        self.add_10 = nn.ReLU()

    def forward(self, x):
        for i in range(12):
            x = self.layers[2](x)
        for i in range(4):
            x = self.layers[3](x)
            x = self.layers[2](x)
        for i in range(3):
            x = self.layers_2(x)
        for i in range(5):
            x = self.conv1[1](x)
            x = self.conv1[2](x)
        for i in range(4):
            x = self.add_10(x)
            x = x + i
        y = self.layers[1](x)
        for i in range(3):
            y = self.layers[2](y)
        for i in range(8):
            x = torch.add(x, y)
        z = self.layers[0](x)
        return self.layers[0](z) + self.add_10(y)
