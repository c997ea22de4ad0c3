import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        # Conv2d checks its groups before it makes the weight
        self.layer = nn.Conv2d(3, 16, 3, groups=5)

    def forward(self, x):
        return self.layer(x)
