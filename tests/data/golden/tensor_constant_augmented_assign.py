import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        for n in "abcdefghijklm":
            self.register_buffer(n, torch.ones(4))

    def forward(self, x):
        a = self.a; a += x
        b = self.b; b -= x
        c = self.c; c *= x
        d = self.d; d /= x
        e = self.e; e //= x
        f = self.f; f %= x
        g = self.g; g **= x
        h = self.h; h @= x
        i = self.i; i &= x
        j = self.j; j |= x
        k = self.k; k ^= x
        l = self.l; l <<= x
        m = self.m; m >>= x
        return (a, b, c, d, e, f, g, h, i, j, k, l, m)
