import math

import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        # math has no pie: Python's AttributeError where it is read (Graft
        # once took any math name for a function).
        self.scale = math.pie

    def forward(self, x):
        return x * self.scale
