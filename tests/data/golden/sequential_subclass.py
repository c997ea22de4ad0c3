"""Classes that extend nn.Sequential: built with positional modules or an
OrderedDict, grown with append(), indexed, sliced, measured with len(),
iterated, and run by Sequential's forward or their own (super().forward)."""
from collections import OrderedDict

import torch
from torch import nn


class M(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.stem = Stem()
        self.body = Body(nn.Conv2d(4, 4, 1), nn.ReLU(), nn.Conv2d(4, 4, 1))
        self.tail = self.body[1:]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.stem(x)
        for i, m in enumerate(self.body):
            x = m(x) + i
        x = self.tail(x) * len(self.tail)
        flags = isinstance(self.body, nn.Sequential) + isinstance(self.tail, Body) * 10
        return self.body[-1](x) + self.stem.conv(x[:, :3]) + flags


class Stem(nn.Sequential):
    """A Sequential subclass with its own forward and named children."""

    def __init__(self, c: int = 4) -> None:
        super().__init__(OrderedDict([("conv", nn.Conv2d(3, c, 3)), ("act", nn.ReLU())]))
        self.append(nn.Identity())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = super().forward(x)
        return y + self[0](x)[:, :, 1:-1, 1:-1] * len(self)


class Body(nn.Sequential):
    pass
