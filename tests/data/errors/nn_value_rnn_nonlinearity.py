import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        # RNN knows tanh and relu
        self.layer = nn.RNN(4, 8, nonlinearity='gelu')

    def forward(self, x):
        return self.layer(x)[0]
