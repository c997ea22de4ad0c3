import torch


class M(torch.nn.Module):
    def forward(self, x):
        return x[1:3].relu()


def pattern(x, i):
    return x[i]


def replacement(x, i):
    return x.select(0, 0)
