import torch


class M(torch.nn.Module):
    def forward(self, x, y):
        n = x.neg()
        u = n.exp()
        a = n + u
        m = y.neg()
        b = m + x
        return a * b


def pattern(p, q):
    return p.neg() + q


def replacement(p, q):
    return q - p
