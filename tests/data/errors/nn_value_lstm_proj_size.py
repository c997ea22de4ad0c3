import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        # the projection must be smaller than the hidden state
        self.layer = nn.LSTM(4, 8, proj_size=8)

    def forward(self, x):
        return self.layer(x)[0]
