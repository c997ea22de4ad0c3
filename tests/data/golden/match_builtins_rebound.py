# A match statement's patterns test with the builtins themselves, whatever
# the program binds to isinstance, len, list, tuple, range, dict, hasattr,
# getattr (a parameter, an import, a module's name, a local).
from collections import OrderedDict as dict
from dataclasses import dataclass

import torch
import torch.nn as nn

isinstance = lambda obj, cls: False


def hasattr(obj, name):
    return False


def getattr(obj, name):
    return 5


@dataclass
class P:
    a: int
    b: int


def pick(x, len):
    match (1, 2):
        case (a, b):
            return x * a + b
        case _:
            return x - len


class M(nn.Module):
    def forward(self, x):
        y = pick(x, 7)
        match [x, x]:
            case [a, b]:
                y = y + a * b
        match {"k": 2}:
            case {"k": v, **rest}:
                y = y * v + len(rest)
        match P(2, 3):
            case P(a, b=bb):
                y = y * a + bb
        range = str
        list = tuple
        match "ab":
            case [c, d]:
                y = y - 100
            case str(s):
                y = y + len(s)
        match [1, 2, 3]:
            case [first, *rest]:
                y = y + first + len(rest)
                if type(rest).__name__ == "list":
                    y = y - 1
        return y
