import torch.nn as nn


class Stem(nn.Module):
    def __init__(self):
        super().__init__()
        # kernel_size forgotten: Conv2d.__init__() needs it
        self.conv = nn.Conv2d(3, 16)
        self.act = nn.ReLU()

    def forward(self, x):
        return self.act(self.conv(x))
