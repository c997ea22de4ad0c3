import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        # torch.empty refuses the weight's negative size
        self.layer = nn.Linear(4, -1)

    def forward(self, x):
        return self.layer(x)
