import torch.nn as nn


class Drop(nn.Module):
    def __init__(self):
        self.p = 0.1 if self.training else 0.0
        super().__init__()

    def forward(self, x):
        return x * self.p
