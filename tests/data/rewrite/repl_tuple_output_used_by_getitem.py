import torch


class M(torch.nn.Module):
    def forward(self, x):
        a = x.sin()
        b = x.cos()
        return a * b, a - b


def pattern(p):
    return p.sin(), p.cos()


def replacement(p):
    c = p.cos()
    return torch.sqrt(1 - c * c), c
