import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("pos", torch.zeros(1, 16, 8))
        self.register_buffer("mask", torch.ones(4, 4, dtype=torch.bool))
        self.w = nn.Parameter(torch.empty(3, 8))

    def forward(self, x):
        s = self.pos.shape
        a = (s[1:], s[::-1], 2 * s, s * 1, s + (1,), (1,) + s, s + s, tuple(s), list(s))
        b = [type(v).__name__ for v in a]
        c = [str(v) for v in a]
        n = torch.Size([2, 3])
        e = torch.Size()
        d = (str(n), type(n).__name__, n.numel() if False else 0, str(e), isinstance(n, torch.Size))
        b0, l, c0 = s
        z = x.view(b0, l, -1) + self.pos[:, : s[1]]
        dims = self.pos.dim(), self.pos.ndim, self.pos.numel(), self.mask.dtype, self.pos.size(-1)
        dt = next(self.parameters()).dtype
        return z.to(dt), a, b, c, d, dims, self.mask.shape, f"{s}"
