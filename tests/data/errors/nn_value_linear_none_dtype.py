import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        # the invalid combination names the types of dtype and device
        self.layer = nn.Linear(4, None, dtype=torch.float32, device=torch.device('cpu'))

    def forward(self, x):
        return self.layer(x)
