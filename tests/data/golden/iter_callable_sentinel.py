import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(3)])

    def forward(self, x):
        items = [3, 2, 1, 0, 5]
        got = list(iter(items.pop, 1))
        left = list(items)
        queue = [0, 1, 2]
        for i in iter(queue.pop, None if False else 0):
            x = self.layers[i](x)
            if i == 2:
                queue.append(1)
        queue.append(5)
        it = iter(lambda: len(queue), 0)
        a = next(it)
        queue.clear()
        b = next(it, "end")
        c = next(it, "again")
        idx = [1, 1, 2]
        ys = [self.layers[j](x) for j in iter(idx.pop, 1)]
        k = iter([7].pop, 7)
        return x, ys, got, left, a, b, c, list(k)
