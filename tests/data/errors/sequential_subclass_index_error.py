"""Indexing a class that extends nn.Sequential past its end: the
IndexError of Sequential's __getitem__, placed at the subscript."""
import torch
from torch import nn


class M(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.body = Body(nn.ReLU(), nn.Tanh())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.body(x)


class Body(nn.Sequential):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for layer in self:
            x = layer(x) * 2
        return self[5](x)
