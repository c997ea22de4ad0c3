"""An error of a torch.nn layer's constructor, reached through a class of
the file that extends the layer: torch places it at the call in the file."""
import torch
from torch import nn


class GroupedConv(nn.Conv2d):
    pass


class M(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = GroupedConv(3, 4, 3, groups=0)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)
