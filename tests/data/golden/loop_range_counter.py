import torch
import torch.nn as nn


def count(n):
    for _ in range(n):
        pass
    return _


class M(nn.Module):
    def forward(self, x):
        acc = []
        for i in range(2000):
            acc.append(i)
        get = lambda: j
        got = []
        for j in range(3000):
            got.append(get())
        d = {}
        for k in range(1500):
            d[k % 7] = k
        for m in range(1200):
            pass
        del m
        for n in range(1100):
            pass
        # n
        total = 0
        for p in range(1500):
            total += p
        for _ in range(2500):
            y = x
        return x + acc[5] + acc[1999] + got[7] + got[2999] + d[3] + total + count(4000)
