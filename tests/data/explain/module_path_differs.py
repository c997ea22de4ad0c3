# at: block_relu
import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block()

    def forward(self, x):
        return self.block(x)


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
        self.bn1 = torch.nn.BatchNorm2d(3)
        self.relu = torch.nn.ReLU()

    def forward(self, x):
        return self.relu(self.bn1(x))
