# at: layer1_0_relu
import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layer1 = torch.nn.Sequential(Block())

    def forward(self, x):
        return self.layer1(x)


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.bn1 = torch.nn.BatchNorm2d(3)
        self.relu = torch.nn.ReLU()

    def forward(self, x):
        return self.relu(self.bn1(x))


class pattern(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layer1 = torch.nn.Module()
        self.layer1.add_module("0", torch.nn.Module())
        getattr(self.layer1, "0").bn1 = torch.nn.BatchNorm2d(3)
        getattr(self.layer1, "0").relu = torch.nn.ReLU()

    def forward(self, x):
        return getattr(self.layer1, "0").relu(getattr(self.layer1, "0").bn1(x))
