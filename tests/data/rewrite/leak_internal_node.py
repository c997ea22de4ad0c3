import torch


class M(torch.nn.Module):
    def forward(self, x):
        a = x.neg()
        b = a.relu()
        c = x.neg()
        d = c.relu()
        e = a * 2
        return b + d + e


def pattern(x):
    return x.neg().relu()


def replacement(x):
    return x.sigmoid()
