# graft-args: --dce
# The output keeps alive what it returns, inside tuples and dicts too; an unused getitem of
# a multi-output call goes while the call stays for the one that is used.
import torch


class M(torch.nn.Module):
    def forward(self, x, y):
        a, b, c = x.chunk(3)
        d = torch.neg(y)
        e = torch.sigmoid(d)
        unused = torch.exp(e)
        return a, {"d": d, "pair": (e, c)}


def pattern(p):
    return torch.sigmoid(p)


def replacement(p):
    return torch.tanh(p) * 0.5 + 0.5
