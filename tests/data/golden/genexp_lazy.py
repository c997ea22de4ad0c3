import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.seq = nn.Sequential(*(nn.Linear(4, 4) for _ in range(2)))
        self.fcs = nn.ModuleList(nn.Linear(4, 4) for _ in range(3))
        self.names = "-".join(str(i) for i in range(3))

    def forward(self, x):
        k = 1
        xs = [x]
        g = (t * k for t in xs)
        k = 2
        xs = [x, x]
        late = list(g)
        empty = list(g)
        d = dict((str(i), fc(x)) for i, fc in enumerate(self.fcs))
        n = max(len(s) for s in ("ab", "c"))
        a, b = (fc(x) for fc in self.fcs[:2])
        y = x.permute(*(i for i in (1, 0)))
        pairs = list(zip((fc(x) for fc in self.fcs), (i for i in range(2))))
        found = 3 in (i + 1 for i in range(5))
        z = self.seq(x)
        for i, t in enumerate(t.relu() for t in (a, b)):
            z = z + t * i
        total = sum((t for t in (a, b)), x)
        nested = list(v.sigmoid() for v in (u.tanh() for u in (x, z)))
        return late, empty, d, n, y, pairs, found, z, total, nested, self.names
