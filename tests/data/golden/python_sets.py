import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(6)])
        self.skip = {1, 3}
        self.names = {"relu", "gelu"}
        self.frozen = frozenset([2, 4])

    def forward(self, x):
        act = "relu"
        seen = set()
        for i, layer in enumerate(self.layers):
            if i in self.skip:
                continue
            x = layer(x)
            seen.add(i)
        if act in self.names:
            x = torch.relu(x)
        evens = {i * 2 for i in range(4) if i != 1}
        both = evens & {0, 2, 6}
        any_ = evens | self.skip
        diff = any_ - both
        sym = evens ^ {0, 7}
        seen |= {7}
        seen.discard(0)
        s2 = set([3, 1, 3, 2])
        s2.update((5, 1), [6])
        s2.remove(6)
        order = [k for k in s2]
        n = len(self.names) + len(sym)
        sub = {1} <= self.skip, {1, 3} < self.skip, self.skip >= {3}, self.skip == {3, 1}
        names = sorted(self.names | {"silu"})
        kinds = type(self.skip).__name__, isinstance(self.frozen, frozenset), isinstance(seen, set)
        text = str(both), repr(self.frozen), f"{seen}", str(set())
        pop = s2.pop()
        t = (1, "a")
        tup = t in {(1, "a"), (2, "b")}
        return x, sorted(seen), order, n, sub, names, kinds, text, pop, max(self.names), min(diff), bool(set()), tup, s2.issubset(range(10)), sorted(self.frozen.union([0])), sorted(diff), 2 in self.frozen, all({1, 2}), any(set())
