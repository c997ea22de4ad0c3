import math
import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        T = 8
        self.register_buffer("mask", torch.tril(torch.ones(T, T)).view(1, 1, T, T))
        self.register_buffer("pos", torch.arange(T).unsqueeze(0))
        self.register_buffer("grid", torch.full((2, 3), 0.5))
        self.register_buffer("eye", torch.eye(3, 4))
        self.register_buffer("lin", torch.linspace(0, 1, 5))
        self.rot = Rotary(6)
        pe = torch.zeros(10, 4)
        position = torch.arange(0, 10, dtype=torch.float).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, 4, 2).float() * (-math.log(10000.0) / 4))
        pe[:, 0::2] = torch.sin(position * div_term)
        self.register_buffer("pe", pe.unsqueeze(0).transpose(0, 1))
        self.register_buffer("st", torch.stack([torch.ones(3), torch.zeros(3)], dim=1))

    def forward(self, x):
        a = self.mask.shape
        b = self.pos.size(), self.pos.dtype
        c = self.grid.dtype, self.eye.shape, self.lin.numel()
        d = self.pe.shape, self.pe.dim()
        e = self.mask[0, 0].shape, self.mask[:, :, :4, :4].shape, self.mask[..., 0].shape
        f = self.eye.t().shape, self.eye.T.shape, self.eye.new_zeros(2, 5).dtype
        g = (self.pos > 3).dtype, (self.pos / 2).dtype, (self.pos * 1.5).dtype, (self.pos + 1).dtype
        h = self.st.shape, self.st.expand(4, 3, 2).shape, self.st.repeat(2, 1).shape
        i = self.eye.permute(1, 0).shape, self.eye.reshape(-1, 2).shape, self.eye.flatten().shape
        j = self.mask.squeeze().shape, self.mask.masked_fill(self.mask == 0, float("-inf")).shape
        k = torch.zeros_like(self.eye).shape, self.lin.long().dtype, self.lin.to(torch.float64).dtype
        return self.rot(x), a, b, c, d, e, f, g, h, i, j, k


class Rotary(nn.Module):
    def __init__(self, dim, max_len=16, base=10000):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
        self.register_buffer("inv_freq", inv_freq)
        t = torch.arange(max_len).type_as(inv_freq)
        freqs = torch.outer(t, inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer("cos_cached", emb.cos()[None, None, :, :])
        self.register_buffer("sin_cached", emb.sin()[None, None, :, :])

    def forward(self, x):
        return x * self.cos_cached.shape[-1] + self.sin_cached.size(2)
