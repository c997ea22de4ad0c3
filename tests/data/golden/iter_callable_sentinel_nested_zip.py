import torch
import torch.nn as nn


class M(nn.Module):
    """Loops over enumerate() and zip() of a zip() or enumerate() of
    iter(callable, sentinel): each step is known when it is made."""

    def __init__(self):
        super().__init__()
        self.ps = nn.ParameterList([nn.Parameter(torch.ones(4)) for _ in range(4)])

    def forward(self, x):
        out = []
        for (a, p), q in zip(zip(iter([0, 1, 2, 3].pop, 0), self.ps), self.ps):
            x = x + p * a - q
            out.append(a)
        for (a, p), q in zip(zip(iter([0, 1, 2, 3].pop, 9), self.ps), [1, 2]):
            x = x + p * a - q
        else:
            out.append(-1)
        for q, (a, p) in zip([1, 2, 3], zip(iter([0, 1, 2, 3, 4].pop, 9), self.ps)):
            x = x * q + p * a
        for n, (m, a) in enumerate(enumerate(iter([5, 6, 7].pop, 5), 3)):
            out.append((n, m, a))
        for n, (a, p) in enumerate(zip(iter([0, 1, 2].pop, 7), self.ps)):
            if n == 1:
                break
            x = x + p
        w = [n * a for n, (a, b) in enumerate(zip(iter([1, 2, 3].pop, 1), "xyz"))]
        v = [(n, a, p) for n, (a, p) in enumerate(zip(iter([9, 2, 3].pop, 9), self.ps))]
        u = list(enumerate(zip(iter([1, 2, 3].pop, 1), "ab")))
        it = iter([0, 1, 2].pop, 0)
        for n, (a, b) in enumerate(zip(it, [7, 8, 9])):
            out.append(a + b)
        return x, out, w, len(v), v[0][2], u, list(it)
