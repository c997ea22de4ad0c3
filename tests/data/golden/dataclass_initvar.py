import dataclasses
from dataclasses import InitVar, dataclass, field

import torch
import torch.nn as nn


# InitVars are parameters of __init__ in the fields' order (a base's
# first), handed to __post_init__, never fields: not in the repr nor in
# ==; their defaults stay class attributes.  A mutable default is allowed
# for an InitVar (not for a field).
@dataclass
class Base:
    a: int
    scale: InitVar[int] = 3

    def __post_init__(self, scale):
        self.a = self.a * scale


@dataclass
class Config(Base):
    c: int = 4
    shift: dataclasses.InitVar[int] = 10

    def __post_init__(self, scale, shift):
        super().__post_init__(scale)
        self.c = self.c + shift


@dataclass
class Plain:
    a: int
    unused: InitVar[int] = 7
    items: InitVar[list] = []
    bare: InitVar = field(default=5)


class DataclassInitvar(nn.Module):
    def forward(self, x):
        k = Config(1, 2, 5)
        k2 = Config(2, shift=1)
        n = Plain(1, 2, [3])
        same = k == Config(2, 1, 5, 0)
        return (x + k.a + k.c, str(k), k2.a, k2.c, str(n), n.unused, Plain.bare, Config.scale,
                same, hasattr(n, "items"))
