import torch.nn as nn


class Stack(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), inplace=True)

    def forward(self, x):
        return self.blocks(x)
