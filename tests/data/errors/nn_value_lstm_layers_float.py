import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        # range() of a float number of layers
        self.layer = nn.LSTM(4, 8, num_layers=2.0)

    def forward(self, x):
        return self.layer(x)
