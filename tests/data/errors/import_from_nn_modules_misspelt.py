import torch
import torch.nn as nn
from torch.nn.modules.conv import Conv4d


class M(nn.Module):
    # torch.nn.modules.conv has no Conv4d: Python's ImportError at the
    # import (Graft once took any capitalised name there for a layer class).
    def __init__(self):
        super().__init__()
        self.conv = Conv4d(1, 1, 1)

    def forward(self, x):
        return self.conv(x)
