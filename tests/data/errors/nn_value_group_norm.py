import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        # 4 channels in 3 groups
        self.layer = nn.GroupNorm(3, 4)

    def forward(self, x):
        return self.layer(x)
