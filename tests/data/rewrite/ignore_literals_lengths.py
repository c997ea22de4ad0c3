# graft-args: --ignore-literals
import torch


class M(torch.nn.Module):
    def forward(self, x):
        a = x.view(4, 2)
        b = a.view(8)
        c = b.view(2, 2, 2)
        d = c.view((2, 4))
        e = d.view([1, 8])
        return e


def pattern(x):
    return x.view(1, 1)


def replacement(x):
    return x.reshape(-1, 1)
