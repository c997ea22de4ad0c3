# graft-args: --pattern ConvPattern --entry M
import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.__conv = torch.nn.Conv2d(3, 3, 1)

    def __act(self, x):
        return x.relu()

    def forward(self, x):
        return self.__act(self.__conv(x)) + 1


class ConvPattern(torch.nn.Module):
    # The model's `self.__conv` is its attribute `_M__conv`; this
    # pattern's private method is its own `_ConvPattern__act`.
    def __init__(self):
        super().__init__()
        self._M__conv = torch.nn.Conv2d(3, 3, 1)

    def __act(self, x):
        return x.relu()

    def forward(self, x):
        return self.__act(self._M__conv(x))


def replacement(x):
    return x.sigmoid()
