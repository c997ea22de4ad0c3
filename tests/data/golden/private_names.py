import torch
import torch.nn as nn


def apply_extra(m, x):
    # A module-level function: no class around it, so `m.__extra` is the
    # attribute `__extra` itself.
    return m.__extra(x)


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.__lin = nn.Linear(4, 4)
        self.__w = nn.Parameter(torch.ones(4))
        self.register_buffer("__b", torch.zeros(4))
        setattr(self, "__extra", nn.Linear(4, 4))
        self.__k = 3

    def __helper(self, x):
        return torch.relu(x) + self.__w

    def forward(self, x):
        def __inner(y):
            return y - self.__w

        y = self.__lin(x)
        y = self.__helper(y)
        y = __inner(y)
        z = [__t * self.__k for __t in (y, x)]
        return apply_extra(self, z[0] + z[1]) + getattr(self, "__b") + self._M__w
