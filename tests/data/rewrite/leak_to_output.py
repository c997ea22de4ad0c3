import torch


class M(torch.nn.Module):
    def forward(self, x):
        a = x.neg()
        b = a.relu()
        c = b.neg()
        d = c.relu()
        return d, a


def pattern(x):
    return x.neg().relu()


def replacement(x):
    return x.sigmoid()
