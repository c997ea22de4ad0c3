# graft-args: --pattern BlockPattern --entry M
import torch


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 3, 1)
        self.act = torch.nn.ReLU()

    def forward(self, x):
        return self.act(self.conv(x))


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block()
        self.layers = torch.nn.Sequential(Block(), Block())

    def forward(self, x):
        return self.layers(self.block(x))


class BlockPattern(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = torch.nn.Sequential(Block(), Block())

    def forward(self, x):
        return self.layers[1].act(self.layers[1].conv(x))


def replacement(x):
    return torch.relu(x)
