# at: relu
import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layer1 = torch.nn.Sequential(Block())

    def forward(self, x):
        return torch.relu(self.layer1[0].bn1(x))


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.bn1 = torch.nn.BatchNorm2d(3)


class pattern(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.bn1 = torch.nn.BatchNorm2d(3)

    def forward(self, x):
        return torch.relu(self.bn1(x))
