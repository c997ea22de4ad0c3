import torch.nn as nn


class M(nn.Module):
    def __combine(self, a, __b):
        # The parameter is `_M__b`; a keyword argument's name is never
        # mangled, so `__b=` names no parameter.
        return a + __b

    def forward(self, x):
        return self.__combine(x, __b=x)
