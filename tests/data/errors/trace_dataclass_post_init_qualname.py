import torch
import torch.nn as nn
from dataclasses import dataclass, InitVar

@dataclass
class C:
    a: int
    b: InitVar[int]
    def __post_init__(self):
        pass

class M(nn.Module):
    def forward(self, x):
        c = C(1, 2)
        return x
