import torch
import torch.nn as nn


class M(nn.Module):
    """Sets of traced values: hashed by identity, so membership, add,
    discard, the algebra and len() are known; a set of one is walked."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        y = self.lin(x)
        z = y.relu()
        seen = {x, y}
        seen.add(y)
        seen.add(3)
        a = z in seen
        b = y not in seen
        seen.discard(y)
        c = len(seen)
        u = {x} | {z}
        v = u - {x}
        w = {x, 1} == {1, x}
        one = list(v)
        s2 = set()
        for t in (x, y, x, z, y):
            s2.add(t)
        only = {z}
        for q in only:
            z = z + q
        return z, a, b, c, len(u), one[0], w, len(s2), 1 in {x}, x in {1, 2}, bool(seen)
