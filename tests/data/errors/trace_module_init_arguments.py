import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block(4)

    def forward(self, x):
        return self.block(x)


class Block(nn.Module):
    def __init__(self, dim):
        super().__init__(dim)
        self.lin = nn.Linear(dim, dim)

    def forward(self, x):
        return self.lin(x)
