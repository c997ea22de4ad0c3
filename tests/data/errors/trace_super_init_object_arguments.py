import torch
import torch.nn as nn


class Cfg:
    def __init__(self, dim):
        # object.__init__ takes no argument but the instance
        super().__init__(dim)
        self.dim = dim


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.cfg = Cfg(4)
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        return self.lin(x)
