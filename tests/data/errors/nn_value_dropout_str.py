import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        # p < 0 compares a str with an int
        self.layer = nn.Dropout('a')

    def forward(self, x):
        return self.layer(x)
