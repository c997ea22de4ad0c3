# graft-args: --pattern ConvRelu --replacement ConvSigmoid
import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 3, 1)
        self.relu = torch.nn.ReLU()

    def forward(self, x):
        y = self.relu(self.conv(x))
        return self.relu(self.conv(y))


class ConvRelu(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 3, 1)
        self.relu = torch.nn.ReLU()

    def forward(self, x):
        return self.relu(self.conv(x))


class ConvSigmoid(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 3, 1)

    def forward(self, x):
        return torch.sigmoid(self.conv(x))
