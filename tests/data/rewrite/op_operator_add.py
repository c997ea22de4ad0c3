import torch


class M(torch.nn.Module):
    def forward(self, x, y):
        a = x + y
        b = a * y
        return b - x


def pattern(p, q):
    return p + q


def replacement(p, q):
    return torch.add(p, q, alpha=2)
