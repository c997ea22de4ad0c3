from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class C:
    a: int = 1


class M(torch.nn.Module):
    def forward(self, x):
        c = C()
        c.a = 2
        return x * c.a
