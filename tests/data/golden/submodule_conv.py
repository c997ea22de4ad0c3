import torch
import torch.nn as nn


class SubmoduleConv(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.act = nn.ReLU(inplace=True)
        self.fc = nn.Linear(8, 2)

    def forward(self, x):
        x = self.act(self.bn(self.conv(x)))
        x = x.mean((2, 3))
        return self.fc(x)
