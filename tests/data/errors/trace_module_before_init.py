import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.head = Head(8)

    def forward(self, x):
        return self.head(x)


class Head(nn.Module):
    def __init__(self, dim):
        # super().__init__() forgotten: nn.Module has no _modules yet
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        return self.proj(x)
