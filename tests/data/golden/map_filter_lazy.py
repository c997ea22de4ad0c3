import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])

    def forward(self, x):
        xs = [1, 2, 3]
        m = map(abs, xs)
        a = list(m)
        b = list(m)
        f = filter(bool, xs)
        xs.append(4)
        c = list(f)
        outs = map(lambda blk: blk(x), self.blocks)
        y = x * 2
        first = next(outs)
        z = torch.cat(list(outs), dim=1)
        total = 0
        for v in map(lambda q: q * 10, filter(None, [0, 5, 0, 6])):
            total += v
        shape = tuple(map(int, ["3", "4"]))
        evens = [e for e in filter(lambda e: e % 2 == 0, range(7))]
        pairs = list(map(lambda p, q: p * q, [1, 2, 3], iter([4, 5])))
        return z + first + y + len(a) + len(b) + len(c) + total + shape[1] + sum(evens) + sum(pairs)
