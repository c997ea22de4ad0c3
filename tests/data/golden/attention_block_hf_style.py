import math
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def __init__(self, dim=16, heads=4, dropout=0.1):
        super().__init__()
        assert dim % heads == 0, "dim must divide"
        self.heads = heads
        self.head_dim = dim // heads
        self.scale = self.head_dim ** -0.5
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)
        self.drop = nn.Dropout(dropout)
        self.register_buffer("bias", torch.tril(torch.ones(8, 8)).view(1, 1, 8, 8))

    def forward(self, x: torch.Tensor, mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        B, T, C = x.size()
        q, k, v = self.qkv(x).split(C, dim=2)
        q = q.view(B, T, self.heads, C // self.heads).transpose(1, 2)
        k = k.view(B, T, self.heads, -1).transpose(1, 2)
        v = v.view(B, T, self.heads, self.head_dim).permute(0, 2, 1, 3)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.bias[:, :, :8, :8] == 0, float("-inf"))
        if mask is not None:
            att = att + mask
        att = F.softmax(att, dim=-1)
        att = self.drop(att)
        y = att @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        scores = torch.einsum("bhqd,bhkd->bhqk", q, k) / q.size(-1) ** 0.5
        neg = torch.finfo(torch.float32).min
        scores = scores.masked_fill(scores < 0, torch.finfo(torch.float32).min)
        return self.proj(y), scores, neg


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([Attention() for _ in range(2)])
        self.layer0 = nn.Linear(16, 16)
        self.layer1 = nn.Linear(16, 16)
        self.norm = nn.LayerNorm(16)

    def forward(self, x, mask=None):
        outs = [layer(x, mask)[0] for layer in self.layers]
        for i in range(2):
            x = getattr(self, f"layer{i}")(x)
        a, b = torch.chunk(x, 2, dim=-1)
        c, d, *rest = x.split([4, 4, 8], dim=-1)
        if isinstance(mask, torch.Tensor):
            x = x * 2
        assert x.dim() == 3
        h = self.norm(x).reshape(x.shape[0], -1)
        return outs, a + b, c * d, rest, h
