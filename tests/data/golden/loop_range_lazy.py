import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        n = 3
        for i in range(n):
            n += 1
            x = x + i
        for i in range(10, 2, -3):
            x = x * i
        for i in range(-3):
            x = x - 100
        for i in range(True, 4, 2):
            x = x - i
        for i in range(0):
            pass
        else:
            x = x + 7
        for i in range(5):
            if i == 2:
                break
        x = x + i
        ys = [x + j for j in range(2) for k in range(j, 3)]
        zs = [a * b for a, b in zip(range(3), ys)]
        for k, v in enumerate(range(4, 7)):
            x = x + k * v
        total = sum(i * i for i in range(-2, 9, 4))
        r = range(3)
        for i in r:
            x = x + r[i]
        return x + total, zs, [len(range(9)[::2])]
