import torch


class M(torch.nn.Module):
    def forward(self, x, y):
        a = torch.mul(x, y).neg()
        b = torch.mul(y, a).neg()
        c = torch.mul(a, b).neg()
        return c


def pattern(p, q):
    return torch.mul(p, q).neg()


def replacement(p, q):
    return torch.mul(q, p.neg())
