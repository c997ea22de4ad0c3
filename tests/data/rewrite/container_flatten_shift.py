import torch


class M(torch.nn.Module):
    def forward(self, x, y, z):
        a = x.view(y, z)
        b = a.view([y, z])
        c = b.view((y,), [[z]])
        return c


def pattern(p, q, r):
    return p.view([q, r])


def replacement(p, q, r):
    return p.reshape(q, r)
