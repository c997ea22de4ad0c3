import dataclasses
from dataclasses import KW_ONLY, InitVar, dataclass, field

import torch
import torch.nn as nn


# Keyword-only parameters of the generated __init__ come after the
# positional ones (a base's too), in any order of defaults; the repr and
# == keep the fields' order.  kw_only=True on the class, `_: KW_ONLY` in
# its body (no field), field(kw_only=...) for one field.
@dataclass(kw_only=True)
class Base:
    a: int = 1
    b: int


@dataclass
class Config(Base):
    c: int
    _: KW_ONLY
    d: int = 4
    scale: InitVar[int] = 1
    e: int = field(default=5, kw_only=False)

    def __post_init__(self, scale):
        self.d = self.d * scale


@dataclass
class One:
    a: int = field(kw_only=True)
    b: int = 2


class DataclassKwOnly(nn.Module):
    def forward(self, x):
        k = Config(7, 8, b=1, d=2, scale=3)
        return (x + Base(b=2).b, str(Base(b=3, a=0)), str(Config(7, b=1)), str(k),
                str(One(3, a=1)), k == Config(7, 8, b=1, d=6))
