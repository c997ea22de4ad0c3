import torch
import torch.nn.functional as F


class M(torch.nn.Module):
    def forward(self, x):
        a = x[:]
        b = x[::]
        c = x[1:]
        d = x[:2]
        e = x[::2]
        f = x[1:2:3]
        g = x[:, None, ..., 0]
        h = x[-1:, :-1]
        i = x[1:2, ::-1]
        j = x[(1, 2)]
        k = x[1,]
        l = x[:, :, :]
        m = x[a.size(0):]
        n = x[None]
        o = x[..., :x.size(1) // 2]
        return a, b, c, d, e, f, g, h, i, j, k, l, m, n, o
