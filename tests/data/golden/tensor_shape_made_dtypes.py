import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        i = torch.arange(3)
        d0 = torch.tensor(2.0, dtype=torch.float64)
        h = torch.zeros(3, dtype=torch.float16)
        f0 = torch.tensor(1.0)
        i0 = torch.tensor(3)
        b = torch.ones(3, dtype=torch.bool)
        a = (i + d0).dtype, (h + d0).dtype, (h + f0).dtype, (i0 + h).dtype, (torch.zeros(3, dtype=torch.int32) + i0).dtype, (i0 + 1.5).dtype, (f0 * 2).dtype
        c = (b + b).dtype, (torch.arange(3) ** -1.0).dtype, (torch.arange(3) // 2.0).dtype, (torch.arange(3) % 2.5).dtype
        e = (b & b).dtype, (i & 1).dtype, (b | True).dtype, (-torch.arange(3)).dtype, torch.arange(3).abs().dtype, torch.full((2,), 1).dtype, torch.arange(2.0, 5).dtype, torch.arange(0, 5, 2.0).shape, torch.linspace(0, 1, 5).dtype
        f = torch.arange(10)[::3].shape, torch.ones(2, 3)[..., None, 0].shape, torch.ones(4)[-2:].shape, torch.eye(3).dtype, (torch.ones(3) > 1).dtype, (torch.ones(2, 3) @ torch.ones(3)).shape
        g = torch.ones(2, 1, 3).squeeze(1).shape, torch.ones(2, 3).expand(2, 2, 3).shape, torch.ones(3).repeat(2, 2).shape, torch.ones(2, 3, 4).flatten(1).shape, torch.ones(2, 3).new_full((2,), 1).dtype, torch.ones(3, dtype=torch.int64).new_zeros(2).dtype
        k = torch.cos(torch.arange(3)).dtype, torch.sqrt(torch.arange(3)).dtype, torch.arange(3).sign().dtype, torch.arange(3).float().half().dtype, torch.ones(3).to("cpu", torch.float64).dtype, torch.zeros_like(torch.arange(3)).dtype, torch.full_like(torch.arange(3), 2.5).dtype
        return x, a, c, e, f, g, k
