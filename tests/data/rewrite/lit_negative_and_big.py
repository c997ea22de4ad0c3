import torch


class M(torch.nn.Module):
    def forward(self, x):
        a = x.flatten(-1) * 1e-05
        b = x.flatten(-1) * 1e-5
        c = x.flatten(1) * 0.00001
        d = x.flatten(-1) * 100000000000000000000
        return a, b, c, d


def pattern(x):
    return x.flatten(-1) * 1e-05


def replacement(x):
    return x.flatten(-1).mul(1e-05)
