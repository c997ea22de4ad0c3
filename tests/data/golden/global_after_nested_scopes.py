# Names of nested scopes (a def's or class's body, a lambda's, a
# comprehension's element), a keyword argument's name and an import's come
# before a function's `global k` without being the function's own use of k:
# Python compiles it, and both torches trace.
import torch
import torch.nn as nn

k = 2


def scale(x):
    def inner():
        return k

    class Box:
        v = k

    get = lambda a, b=1: k + a
    ks = [k for _ in range(2)]
    pairs = dict(k=1)
    from math import pi as k_pi
    import math as k_math
    global k
    k = 3
    return x * inner() + Box.v + get(1) + sum(ks) + pairs["k"]


class M(nn.Module):
    def forward(self, x):
        return scale(x) + k
