import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.ids = {0, 1, 2}
        self.pair = {5, 1}

    def forward(self, x):
        # pop() walks the slots from past its last one (CPython's finger)
        a = self.ids.pop()
        self.ids.add(0)
        b = self.ids.pop()
        c = self.pair.pop()
        self.pair.add(1)
        d = self.pair.pop()
        s = {0, 1, 2, 3}
        s.pop()
        s.pop()
        s.clear()
        s.update({0, 1, 2})
        e = s.pop()
        t = {0, 1, 2, 3}
        t.pop()
        t.pop()
        t &= {0, 1, 2, 3}
        f = t.pop()
        # an intersection keeps the items of the set it walks: the smaller
        # one, the right one if the sizes are the same, any other iterable
        g = tuple({True} & {1}), tuple({1} & {True}), tuple({True, 2} & {1})
        h = tuple({True}.intersection([1])), tuple({1, 2}.intersection({True, 2, 5}))
        u = {3}
        u.intersection_update({3.0})
        w = {1, 0}
        w &= {True, False, 7}
        k = tuple(frozenset({0.0, 1}) & {False, 2, 3}), str({False} & frozenset({0}))
        return x + a + b, c, d, e, f, g, h, tuple(u), tuple(w), k, tuple(self.ids), tuple(self.pair)
