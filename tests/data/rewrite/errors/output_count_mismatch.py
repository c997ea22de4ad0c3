import torch


class M(torch.nn.Module):
    def forward(self, x):
        a = x.relu()
        b = x.sigmoid()
        return a * b


def pattern(p):
    return p.relu(), p.sigmoid()


def replacement(p):
    return p.tanh()
