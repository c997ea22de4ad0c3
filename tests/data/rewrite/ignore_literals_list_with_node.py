# graft-args: --ignore-literals
import torch


class M(torch.nn.Module):
    def forward(self, x, y):
        a = torch.cat(tensors=[x, y], dim=0)
        b = torch.cat([x, y], dim=1)
        c = torch.stack([a, b], dim=-1)
        return c


def pattern(p, q):
    return torch.cat([p, q], dim=0)


def replacement(p, q):
    return torch.cat([q, p], dim=0)
