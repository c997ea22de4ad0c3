import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        # an integer parameter cannot require its gradient
        self.layer = nn.Linear(4, 3, dtype=torch.int64)

    def forward(self, x):
        return self.layer(x)
