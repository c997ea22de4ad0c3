import torch


class M(torch.nn.Module):
    def forward(self, x):
        return x.relu() + 1


def pattern(p):
    return p.relu(), p.sigmoid()


def replacement(p):
    return p.tanh(), p.neg()
