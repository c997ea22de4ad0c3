import dataclasses
from dataclasses import dataclass, field
from typing import ClassVar, Tuple

import torch
import torch.nn as nn


@dataclass(frozen=True)
class Base:
    width: int = 4
    kind: str = "mlp"


@dataclass(eq=True, frozen=True)
class Cfg(Base):
    depth: int = 2
    scale: float = 0.5
    dims: Tuple[int, ...] = (4, 4)
    tags: list = field(default_factory=list)
    note: str = field(default="x")
    count: ClassVar[int] = 7
    width: int = 6

    def __post_init__(self):
        object.__setattr__(self, "total", self.width * self.depth) if False else None

    def hidden(self):
        return self.width * 2


@dataclasses.dataclass
class Plain:
    a: int
    b: int = 3

    def __repr__(self):
        return "Plain!"


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.cfg = Cfg(depth=3)
        self.p = Plain(1)
        self.layers = nn.ModuleList([nn.Linear(self.cfg.width, self.cfg.width) for _ in range(self.cfg.depth)])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x) * self.cfg.scale
        c2 = Cfg(6, "conv", 3)
        info = (repr(self.cfg), str(c2), self.cfg == c2, self.cfg == Cfg(depth=3), Cfg.count, Cfg.width, Base().kind)
        return x, info, self.cfg.hidden(), self.p.a + self.p.b, self.cfg.tags, Plain(1) == Plain(1), isinstance(self.cfg, Base)
