from dataclasses import KW_ONLY, dataclass, field

import torch


@dataclass
class A:
    _: KW_ONLY
    a: int = 1
    __: KW_ONLY
    b: int = 2


class M(torch.nn.Module):
    def forward(self, x):
        return x + A().a
