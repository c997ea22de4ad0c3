import torch
import torch.nn as nn


class Outer(nn.Module):
    class __Inner(nn.Module):
        def __init__(self):
            super().__init__()
            self.__norm = nn.LayerNorm(4)

        def forward(self, x):
            return self.__norm(x)

    def __init__(self):
        super().__init__()
        self.__inner = self.__Inner()
        self.__block = make_block()
        self.__plain = ___()

    def __combine(self, a, __b):
        return a + __b

    def forward(self, __x):
        f = lambda __y: self.__inner(__y)
        h = self.__block(__x, scale=2.0)
        h = self.__combine(h, f(__x))
        return self.__combine(self.__plain(h), getattr(self._Outer__inner, "_Inner__norm")(h))


class __Block(nn.Module):
    # A class named with underscores: its own private names mangle by
    # `Block`; its name, at the top level, is not mangled.
    def __init__(self):
        super().__init__()
        self.__proj = nn.Linear(4, 4)

    def forward(self, x, scale=1.0):
        return self.__proj(x) * scale


class ___(nn.Module):
    # Only underscores: nothing is mangled.
    def __init__(self):
        super().__init__()
        self.__act = nn.ReLU()

    def forward(self, x):
        return self.__act(x)


def make_block():
    # At the top level `__Block` is the class's own name.
    return __Block()
