import torch
import torch.nn as nn


class BuiltInLoop(nn.Module):
    def __init__(self):
        super().__init__()
        for i in range(3):
            setattr(self, "fc%d" % i, nn.Linear(4, 4))
        self.blocks = nn.Sequential()
        for i in range(2):
            self.blocks.add_module("block%d" % i, nn.ReLU())

    def forward(self, x):
        x = self.fc0(x)
        x = self.fc2(self.fc1(x))
        return self.blocks(x)
