import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        # torch.empty parses the device string: its index is not a number
        self.layer = nn.Linear(4, 3, device='cuda:x')

    def forward(self, x):
        return self.layer(x)
