import torch


class M(torch.nn.Module):
    def forward(self, x):
        a = x.exp().log()
        b = a.exp().log()
        return a + b


def pattern(p):
    r = p.exp().log()
    return r, r


def replacement(p):
    return p.clone()
