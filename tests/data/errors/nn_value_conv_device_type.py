import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        # torch.empty parses the device string: no such device type
        self.layer = nn.Conv2d(3, 4, 3, device='foo:1')

    def forward(self, x):
        return self.layer(x)
