"""LLaMA-style pieces: RMSNorm, rotary embeddings, SwiGLU, grouped KV heads."""
import math
from dataclasses import dataclass
from typing import Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass(frozen=True)
class ModelArgs:
    dim: int = 32
    n_heads: int = 4
    n_kv_heads: int = 2
    norm_eps: float = 1e-5

    @property
    def head_dim(self) -> int:
        return self.dim // self.n_heads


class LlamaBlock(nn.Module):
    def __init__(self, args: ModelArgs = ModelArgs()) -> None:
        super().__init__()
        self.attention = Attention(args)
        self.feed_forward = SwiGLU(args.dim, 4 * args.dim)
        self.attention_norm = RMSNorm(args.dim, eps=args.norm_eps)
        self.ffn_norm = RMSNorm(args.dim, eps=args.norm_eps)

    def forward(self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
        h = x + self.attention(self.attention_norm(x), cos, sin)
        return h + self.feed_forward(self.ffn_norm(h))


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def _norm(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self._norm(x.float()).type_as(x) * self.weight


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary(q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    return (q * cos) + (rotate_half(q) * sin), (k * cos) + (rotate_half(k) * sin)


def repeat_kv(x: torch.Tensor, n_rep: int) -> torch.Tensor:
    if n_rep == 1:
        return x
    bs, n_kv, slen, hd = x.shape
    return x[:, :, None, :, :].expand(bs, n_kv, n_rep, slen, hd).reshape(bs, n_kv * n_rep, slen, hd)


class Attention(nn.Module):
    def __init__(self, args: ModelArgs) -> None:
        super().__init__()
        self.args = args
        self.n_rep = args.n_heads // args.n_kv_heads
        self.wq = nn.Linear(args.dim, args.n_heads * args.head_dim, bias=False)
        self.wk = nn.Linear(args.dim, args.n_kv_heads * args.head_dim, bias=False)
        self.wv = nn.Linear(args.dim, args.n_kv_heads * args.head_dim, bias=False)
        self.wo = nn.Linear(args.n_heads * args.head_dim, args.dim, bias=False)

    def forward(self, x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor) -> torch.Tensor:
        bsz, seqlen, _ = x.shape
        hd = self.args.head_dim
        q = self.wq(x).view(bsz, seqlen, self.args.n_heads, hd).transpose(1, 2)
        k = self.wk(x).view(bsz, seqlen, self.args.n_kv_heads, hd).transpose(1, 2)
        v = self.wv(x).view(bsz, seqlen, self.args.n_kv_heads, hd).transpose(1, 2)
        q, k = apply_rotary(q, k, cos, sin)
        k = repeat_kv(k, self.n_rep)
        v = repeat_kv(v, self.n_rep)
        scores = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(hd)
        mask = torch.full_like(scores[0, 0], float("-inf")).triu(1)
        scores = F.softmax((scores + mask).float(), dim=-1).type_as(q)
        out = torch.matmul(scores, v)
        return self.wo(out.transpose(1, 2).contiguous().view(bsz, seqlen, -1))


class SwiGLU(nn.Module):
    def __init__(self, dim: int, hidden: int) -> None:
        super().__init__()
        self.w1 = nn.Linear(dim, hidden, bias=False)
        self.w2 = nn.Linear(hidden, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.w2(F.silu(self.w1(x)) * self.w3(x))
