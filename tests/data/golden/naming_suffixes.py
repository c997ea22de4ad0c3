import torch
import torch.nn as nn


class NamingSuffixes(nn.Module):
    def __init__(self):
        super().__init__()
        self.add_1 = nn.ReLU()
        self.conv_0 = nn.ReLU()
        self.conv_1 = nn.ReLU()

    def forward(self, x, x_01):
        a = x + x_01
        b = self.add_1(a)
        c = a + b
        d = self.conv_0(c)
        e = self.conv_0(d)
        f = self.conv_1(e)
        g = (a & b) & (c & d)
        return f + g
