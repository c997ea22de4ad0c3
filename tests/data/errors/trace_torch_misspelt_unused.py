import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        # torch has no rOOOOO: reading it is torch's AttributeError, used or not.
        z = torch.rOOOOO

    def forward(self, x):
        return self.fc(x)
