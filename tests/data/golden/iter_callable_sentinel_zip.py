import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(4)])
        self.ps = nn.ParameterList([nn.Parameter(torch.ones(4)) for _ in range(3)])

    def forward(self, x):
        q = [0, 1, 2, 3]
        outs = []
        for i, j in zip(iter(q.pop, 1), [10, 20, 30]):
            x = self.layers[i](x) + j
            outs.append(i)
        for n, i in enumerate(iter([5, 2, 0].pop, 5)):
            x = self.layers[i](x) * n
        r = [0, 1, 2]
        for i, p in zip(iter(r.pop, 0), self.ps):
            x = x + p * i
        s = [3, 1, 0]
        for p, i in zip(self.ps, iter(s.pop, 3)):
            x = x - p * i
        z = list(zip(iter([1, 2, 3].pop, 1), "ab"))
        e = list(enumerate(iter([4, 5, 6].pop, 4), 1))
        w = [a + b for a, b in zip(iter([1, 2, 3].pop, 0), iter([0, 7, 8].pop, 0))]
        return x, outs, z, e, w, self.values(x)

    def values(self, x):
        z = zip(iter([0, 1, 2].pop, 0), self.ps)
        first = next(z)
        x = x + first[1]
        for i, p in z:
            x = x * p + i
        else:
            x = x - 1
        e = enumerate(iter([5, 6, 7].pop, 5), 10)
        t = type(e).__name__
        a = next(e)
        b = list(e)
        for n, p in enumerate(self.ps, 1):
            if n == 2:
                break
            x = x + p * n
        q = [0, 1, 2, 3]
        for a2, b2 in zip(iter(q.pop, 0), iter(q.pop, 0)):
            x = x + a2 - b2
        n = 0
        for k in zip(iter([9, 8].pop, 8), iter([3].pop, 0)):
            n = n + 1
        else:
            n = n + 100
        w = list(zip(self.ps, iter([1].pop, 1)))
        return x, first[0], t, a, b, q, n, len(w), type(z) is zip
