from dataclasses import InitVar, dataclass

import torch


@dataclass
class N:
    # An InitVar is a parameter of __init__: a field without a default
    # after it is Python's TypeError (3.13 names the InitVar).
    u: InitVar[int] = 1
    a: int


class M(torch.nn.Module):
    def forward(self, x):
        return x + N(1, 2).a
