"""A dense mixture of experts: a gate and experts in a ModuleList."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class MoE(nn.Module):
    """Top-k routing computed densely: every expert runs, weights mask them."""

    def __init__(self, dim: int = 32, num_experts: int = 4, top_k: int = 2) -> None:
        super().__init__()
        self.gate = nn.Linear(dim, num_experts, bias=False)
        self.experts = nn.ModuleList([Expert(dim, dim * 2) for _ in range(num_experts)])
        self.top_k = top_k

    @property
    def num_experts(self) -> int:
        return len(self.experts)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        logits = self.gate(x)
        weights, chosen = torch.topk(logits, self.top_k, dim=-1)
        weights = F.softmax(weights, dim=-1, dtype=torch.float).to(x.dtype)
        out = torch.zeros_like(x)
        for i, expert in enumerate(self.experts):
            w = (weights * (chosen == i)).sum(dim=-1, keepdim=True)
            out = out + w * expert(x)
        return out / self.num_experts


class Expert(nn.Module):
    def __init__(self, dim: int, hidden: int) -> None:
        super().__init__()
        self.w1 = nn.Linear(dim, hidden)
        self.w2 = nn.Linear(hidden, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.w2(F.silu(self.w1(x)))
