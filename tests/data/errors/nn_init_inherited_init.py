import torch.nn as nn


class Down(nn.Module):
    def __init__(self):
        super().__init__()
        # MaxPool2d's __init__ is _MaxPoolNd's, which Python's TypeError names
        self.pool = nn.MaxPool2d(stride=2)

    def forward(self, x):
        return self.pool(x)
