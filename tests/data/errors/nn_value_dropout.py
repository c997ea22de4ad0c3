import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        # a probability above 1
        self.layer = nn.Dropout(1.5)

    def forward(self, x):
        return self.layer(x)
