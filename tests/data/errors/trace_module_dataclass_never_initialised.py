import torch
import torch.nn as nn
from dataclasses import dataclass


# the generated __init__ never calls nn.Module.__init__
@dataclass(eq=False)
class Net(nn.Module):
    dim: int = 4

    def forward(self, x):
        return x * self.dim
