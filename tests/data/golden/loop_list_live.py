import torch
import torch.nn as nn

# zip(), enumerate() and iter() of a list read the list as it stands at
# each step, as Python's list iterator does.

class M(nn.Module):
    def forward(self, x):
        lst = [1, 2, 3, 4]
        it = [7, 8, 9, 10]
        steps = 0
        for a, b in zip(lst, it):
            lst.pop()
            steps += 1
        xs = [1]
        for i, v in enumerate(xs):
            if v < 5:
                xs.append(v + 2)
        ys = [10, 20]
        itr = iter(ys)
        ys.append(30)
        got = list(itr)
        ys.append(40)
        after = list(itr)
        zs = [1, 2]
        z = zip(zs, [5, 6, 7])
        zs.append(3)
        pairs = list(z)
        es = [3]
        e = enumerate(es)
        es.append(4)
        n = [0]
        for k in iter(n):
            if k < 3:
                n.append(k + 1)
        w = [1, 2, 3]
        c = [q * r for q, r in zip(w, [1, 2, 3, 4, 5]) if w.append(q) is None]
        return x + steps, xs, got, after, pairs, list(e), n, c
