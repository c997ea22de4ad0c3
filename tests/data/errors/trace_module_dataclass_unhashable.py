import torch
import torch.nn as nn
from dataclasses import dataclass


# eq=True (the default) sets __hash__ to None: named_modules() cannot hash it
@dataclass
class Net(nn.Module):
    dim: int = 4

    def forward(self, x):
        return x * self.dim
