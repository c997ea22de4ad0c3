from dataclasses import InitVar, dataclass, field

import torch


@dataclass
class N:
    a: int
    u: InitVar[list] = field(default_factory=list)


class M(torch.nn.Module):
    def forward(self, x):
        return x + N(1).a
