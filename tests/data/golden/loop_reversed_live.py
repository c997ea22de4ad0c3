import torch
import torch.nn as nn

# reversed() of a list reads the list as it stands at each step.
class M(nn.Module):
    def forward(self, x):
        a = [1, 2, 3, 4]
        r = reversed(a)
        a.pop()
        first = list(r)
        b = [1, 2, 3]
        out = []
        for v in reversed(b):
            out.append(v)
            b.append(v * 10)
        c = [5, 6, 7, 8]
        seen = []
        for v in reversed(c):
            seen.append(v)
            if len(c) > 2:
                c.pop(0)
        d = [x, x * 2, x * 3]
        ys = [t + 1 for t in reversed(d)]
        e = [1, 2]
        re = reversed(e)
        e.clear()
        e.extend([7, 8, 9])
        return ys, first, out, seen, list(re), list(reversed([])), tuple(reversed((1, 2)))
