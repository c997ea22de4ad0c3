# graft-args: --pattern ConvPattern --entry M
import torch


class Inner(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 3, 1)

    def forward(self, x):
        return self.conv(x)


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Inner()

    def forward(self, x):
        return self.block(x).relu()


class ConvPattern(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 3, 1)

    def forward(self, x):
        return self.conv(x).relu()


def replacement(x):
    return x.sigmoid()
