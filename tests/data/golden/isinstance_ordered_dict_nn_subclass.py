"""isinstance() against collections.OrderedDict and against torch.nn layer
classes, for instances of the file's classes that extend them (and one that
only shares a layer's name)."""
from collections import OrderedDict

import torch
from torch import nn


class M(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.lin = Scaled(4, 4)
        self.fake = Linear()
        self.relu = nn.ReLU()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        d = OrderedDict([("a", 1)])
        flags = [
            isinstance(d, OrderedDict),
            isinstance({}, OrderedDict),
            isinstance(d, dict),
            isinstance(self.lin, nn.Linear),
            isinstance(self.lin, (nn.Conv2d, nn.Linear)),
            isinstance(self.lin, nn.Module),
            isinstance(self.fake, nn.Linear),
            isinstance(self.relu, nn.ReLU),
            isinstance(self.relu, nn.Linear),
        ]
        return self.lin(x) + sum(2**i for i, f in enumerate(flags) if f)


class Scaled(nn.Linear):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return super().forward(x) * 2


class Linear(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x
