from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class C:
    a: int = 1


@dataclass(frozen=True)
class D(C):
    b: int = 2


class M(torch.nn.Module):
    def forward(self, x):
        c = C()
        try:
            c.a = 2
        except AttributeError:
            x = x + 1
        d = D(b=5)
        try:
            d.z = 3
        except AttributeError as e:
            x = x * 2
        return x * c.a + d.b, repr(d)
