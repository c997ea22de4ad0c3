import torch
import torch.nn as nn


class Cfg:
    def __init__(self, width):
        self.width = width

    def doubled(self):
        return self.__class__(self.width * 2)


class Base(nn.Module):
    k = 2

    @classmethod
    def make(cls, n):
        return n * cls.k


class M(Base):
    k = 3

    def __init__(self):
        super().__init__()
        self.n = self.__class__.make(4) + len(self.__class__.__name__)
        self.cfg = Cfg(4).doubled()
        self.same = self.__class__ is M and type(self) is self.__class__
        self.equal = (type(self) == M) + (type(self) != M) * 10 + (type(self) == Base) * 100
        self.keyed = {M: 1, Base: 2}[type(self)]

    def forward(self, x):
        assert self.__class__.__name__ == "M", f"{self.__class__.__name__} is not M"
        return x * self.n + self.cfg.width + self.same + self.equal + self.keyed + self.__class__.k
