import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        # float(dropout) of a string that is no number
        self.layer = nn.LSTM(4, 8, dropout='a')

    def forward(self, x):
        return self.layer(x)
