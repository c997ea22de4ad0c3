# graft-args: --dce
# torch._assert is side-effectful in both torches: it stays, and so do the nodes that
# compute its condition; the rest of what nothing uses goes.
import torch


class M(torch.nn.Module):
    def forward(self, x):
        torch._assert(x.sum() > 0, "x must be positive")
        s = x.size(0)
        torch._assert(s == 3, "three rows")
        t = torch.neg(x)
        return torch.relu(torch.neg(x))


def pattern(p):
    return torch.relu(torch.neg(p))


def replacement(p):
    return torch.nn.functional.relu(-p)
