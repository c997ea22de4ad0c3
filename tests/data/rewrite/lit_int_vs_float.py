import torch


class M(torch.nn.Module):
    def forward(self, x):
        a = x + 1
        b = a + 1.0
        c = b + 1
        d = c + 2
        return d


def pattern(x):
    return x + 1


def replacement(x):
    return torch.add(x, 10)
