import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def __init__(self, n=2):
        super().__init__()
        self.n = n
        for i in range(n):
            self.register_buffer(f"buf{i}", torch.ones(4) * i)
        self.act = "gelu"
        self.mode = "near" + "est"

    def forward(self, x):
        for i in range(self.n):
            x = x + getattr(self, f"buf{i}")
        x = getattr(F, f"{self.act}")(x)
        y = F.interpolate(x.view(1, 1, 4, -1), scale_factor=2, mode=f"{self.mode}")
        d = {f"k{i}": x * i for i in range(self.n)}
        return d, y, x.sum(dim=int(f"{-1}")), torch.ones(2, device=f"cpu", dtype=getattr(torch, f"float{32}"))
