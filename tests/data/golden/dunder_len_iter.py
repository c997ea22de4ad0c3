"""len() and iteration of the file's own classes through __len__ and
__iter__: a plain container class and a module holding a ModuleList."""
from typing import Iterator, List

import torch
from torch import nn


class M(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.blocks = Blocks(3)
        self.scales = Scales([0.5, 2.0, 4.0])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for block in self.blocks:
            x = block(x)
        for s in self.scales:
            x = x * s
        pairs = list(zip(self.blocks, self.scales))
        return x + len(self.blocks) + len(self.scales) * 10 + len(pairs) * 100


class Blocks(nn.Module):
    def __init__(self, n: int) -> None:
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(n)])

    def __len__(self) -> int:
        return len(self.layers)

    def __iter__(self) -> Iterator[nn.Module]:
        return iter(self.layers)


class Scales:
    def __init__(self, values: List[float]) -> None:
        self.values = values

    def __len__(self) -> int:
        return len(self.values) - 1

    def __iter__(self) -> Iterator[float]:
        return iter(self.values[1:])
