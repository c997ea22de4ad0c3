import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("i", torch.arange(6))
        self.register_buffer("f", torch.ones(2, 3))
        self.register_buffer("b", torch.ones(3, dtype=torch.bool))
        self.register_buffer("d", torch.zeros(3, dtype=torch.float64))
        self.register_buffer("h", torch.zeros(3, dtype=torch.float16))
        self.register_buffer("s", torch.tensor(2.0))
        self.register_buffer("si", torch.tensor(2))

    def forward(self, x):
        a = (self.i // 2).dtype, (self.i % 4).dtype, (self.i ** 2).dtype, (self.i ** 0.5).dtype
        b = (self.b + 1).dtype, (self.b * True).dtype, (self.b + 1.5).dtype, (self.i + self.f[0, 0]).dtype
        c = (self.d + self.f[0]).dtype, (self.h + self.f[0]).dtype, (self.h * 2).dtype, (self.d + self.i[:3]).dtype
        d = (self.f + self.s).dtype, (self.i + self.s).dtype, (self.h + self.s).dtype, (self.i * self.si).dtype
        e = (self.f @ self.f.t()).shape, (self.i[:3] @ self.i[:3]).shape, (-self.f).shape, (self.i[:3] == self.d).dtype
        f = torch.arange(0.5, 3).shape, torch.arange(1, 10, 3).shape, torch.arange(5, 0, -1).shape, torch.arange(0, 1, 0.1).shape
        g = torch.full((2,), True).dtype, torch.full([3], 7).dtype, torch.full((1, 2), 1.0, dtype=torch.float16).dtype
        h = self.f[1].shape, self.f[-1, -2].shape, self.f[:, None].shape, self.f[None].shape, self.f[..., None].shape
        i = self.f[::2].shape, self.f[5:].shape, self.f[:, -2:].shape, self.f[1:0].shape
        j = self.f.unsqueeze(-1).shape, self.f.sum().shape if False else 0, self.i.view(2, -1).shape, self.f.transpose(-1, 0).shape
        k = self.f.new_full((2, 2), 3).dtype, self.i.new_ones(3).dtype, self.i.float().sqrt().dtype, self.i.cos().dtype
        l = self.f.expand(2, -1, -1).shape, self.i.abs().dtype, self.b.neg().shape if False else 0, torch.cat([self.f, self.f]).shape
        m = torch.stack([self.i, self.i]).shape, torch.stack((self.i, self.i), -1).shape, torch.ones_like(self.i, dtype=torch.float32).dtype
        n = self.f.flatten(0, 1).shape, self.f.mT.shape, self.i.reshape(3, 2).T.shape, self.i[None, :, None].shape
        o = self.s.shape, self.s.dim(), self.si.dtype, (self.s * 2).shape, torch.tril(self.f, 1).shape, self.f.triu().dtype
        return x, a, b, c, d, e, f, g, h, i, j, k, l, m, n, o
