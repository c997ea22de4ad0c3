# graft-args: --ignore-literals
import torch


class M(torch.nn.Module):
    def forward(self, x):
        a = torch.mul(torch.add(x, 2), 3)
        b = torch.mul(torch.add(a, 2), 2.0)
        c = torch.mul(torch.add(b, x), 2)
        return c


def pattern(x, k):
    return torch.mul(torch.add(x, k), 5)


def replacement(x, k):
    return torch.add(x, k)
