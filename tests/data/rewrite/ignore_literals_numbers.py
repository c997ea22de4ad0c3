# graft-args: --ignore-literals
import torch


class M(torch.nn.Module):
    def forward(self, x, y):
        a = x + 1
        b = a + 2.5
        c = b + True
        d = c + y
        e = d + None
        return e


def pattern(x):
    return x + 1


def replacement(x):
    return x.add(1)
