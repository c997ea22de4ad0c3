import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        # the sizes must be a tuple or list of ints
        self.layer = nn.Unflatten(1, 3)

    def forward(self, x):
        return self.layer(x)
