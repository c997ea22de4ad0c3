# graft-args: --dce
# Nothing matches, and dead code is eliminated all the same (`size` and `view` unused).
import torch


class M(torch.nn.Module):
    def forward(self, x):
        n = x.size(0)
        v = x.view(n, -1)
        return torch.relu(x)


def pattern(p):
    return torch.cos(p)


def replacement(p):
    return torch.sin(p)
