import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        # an int beyond 64 bits as torch.empty's size
        self.layer = nn.Linear(2 ** 70, 4)

    def forward(self, x):
        return self.layer(x)
