import functools

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        # partial needs the function it calls
        self.make = functools.partial()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        return self.lin(x)
