from dataclasses import KW_ONLY, dataclass, field

import torch


@dataclass(kw_only=True)
class A:
    a: int = 1
    b: int
    c: int


class M(torch.nn.Module):
    def forward(self, x):
        return x + A(a=2).a
