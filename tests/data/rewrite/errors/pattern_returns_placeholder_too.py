import torch


class M(torch.nn.Module):
    def forward(self, x, y):
        a = x.relu()
        b = y + a
        return b * 2


def pattern(p, q):
    return p.relu(), q


def replacement(p, q):
    return p.clamp(min=0), q
