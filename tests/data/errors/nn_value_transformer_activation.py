import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        # a layer's activation is relu or gelu by name
        self.layer = nn.TransformerEncoderLayer(8, 2, activation='tanh')

    def forward(self, x):
        return self.layer(x)
