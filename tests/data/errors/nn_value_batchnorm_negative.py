import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        # the running statistics' negative size
        self.layer = nn.BatchNorm2d(-1)

    def forward(self, x):
        return self.layer(x)
