import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    # __eq__ without __hash__: instances cannot be hashed
    def __eq__(self, other):
        return self is other

    def forward(self, x):
        return self.lin(x)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block()

    def forward(self, x):
        return self.block(x)
