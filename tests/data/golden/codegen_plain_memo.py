# The code generator writes containers of plain values (no node) from a
# memo kept by the address of their items: the same index tuple over and
# over, many different ones (more than its slots), nested ones, floats and
# bools among ints, and slices whose part is a value (never memoized).
import torch
import torch.nn as nn


class PlainMemo(nn.Module):
    def forward(self, x, y):
        a = x[:, :4] + y[:, :4]
        b = x[:, :4] * y[:, :4]
        c = x[:, 1:5] - x[:, :4]
        d = x[:, 2:6] + x[:, 3:7] + x[:, 4:8] + x[:, 5:9] + x[:, 6:10]
        e = x[:, 7:11] + x[:, 8:12] + x[:, 9:13] + x[:, 10:14] + x[:, 11:15]
        f = x[:, 12:16] + x[::2, :4].repeat(2, 1) + x[1::2, :4].repeat(2, 1)
        g = x[:, :4] + x[:, 1:5] + x[:, 2:6]
        n = x.shape[1] // 4
        h = x[:, :n] + x[:, :4] + x[:, n:2 * n]
        i = x.permute([1, 0]).permute([1, 0]) + x.view((8, 16)).view([8, 16])
        j = torch.nn.functional.pad(a, [1, 1, 0, 0], value=0.5)
        k = torch.nn.functional.pad(b, [1, 1, 0, 0], value=0.25)
        m = x.new_full((2, 3), 1.5) + x.new_full((2, 3), 2.5)
        o = x.reshape((2, (4, 16)[0], -1)) if False else x.reshape((2, 4, -1))
        p = x[(slice(None), slice(0, 4))] + x[:, 0:4]
        return a, b, c, d, e, f, g, h, i, j, k, m, o, p
