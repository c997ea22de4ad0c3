from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass(frozen=True)
class Base:
    width: int = 4
    kind: str = "mlp"


# eq=False and repr=False: Cfg makes neither method, so Base's generated
# ones compare and print Base's fields (Cfg's own depth is not in them).
@dataclass(eq=False, repr=False, frozen=True)
class Cfg(Base):
    depth: int = 2


@dataclass(eq=0, frozen=True)
class Loose(Base):
    scale: float = 0.5


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.cfg = Cfg(depth=3)
        self.fc = nn.Linear(self.cfg.width, self.cfg.width)

    def forward(self, x):
        same = self.cfg == Cfg(depth=5)
        other = self.cfg == Cfg(8)
        loose = Loose(scale=2.0) == Loose(scale=3.0)
        mixed = Loose() == Base()
        return self.fc(x) * self.cfg.depth, (same, other, loose, mixed, repr(self.cfg), str(Loose()))
