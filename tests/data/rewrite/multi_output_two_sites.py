import torch


class M(torch.nn.Module):
    def forward(self, x, y):
        a = x.relu()
        b = y.relu()
        c = x.sigmoid()
        d = y.sigmoid()
        return a * c + b * d


def pattern(p):
    return p.relu(), p.sigmoid()


def replacement(p):
    s = p.tanh()
    return s, s.neg()
