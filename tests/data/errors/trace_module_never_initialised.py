import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.gate = Gate(2)

    def forward(self, x):
        return self.gate(self.lin(x))


class Gate(nn.Module):
    def __init__(self, k):
        # plain attributes are set, but tracing walks named_modules()
        self.k = k

    def forward(self, x):
        return x * self.k
