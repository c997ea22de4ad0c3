from dataclasses import InitVar, dataclass

import torch


@dataclass
class N:
    a: int
    u: InitVar[int]


class M(torch.nn.Module):
    def forward(self, x):
        # An InitVar without a default is a required parameter of __init__.
        return x + N(1).a
