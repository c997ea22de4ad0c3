import torch
import torch.nn as nn
from dataclasses import dataclass


@dataclass
class Cfg:
    kind: str
    depth: int = 2


class Point:
    __match_args__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y


class M(nn.Module):
    def forward(self, x):
        match Cfg("conv", 3):
            case Cfg("linear"):
                x = x - 1
            case Cfg("conv", d):
                x = x * d
        match Point(1, 2):
            case Point(a, y=b):
                x = x + a + b
        match 7:
            case int(n):
                x = x + n
        return x
