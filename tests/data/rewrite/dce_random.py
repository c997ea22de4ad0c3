# graft-args: --dce
# Random calls that nothing uses go in both torches: neither looks at
# `nondeterministic_seeded`, and their schemas write nothing.
import torch
import torch.nn.functional as F


class M(torch.nn.Module):
    def forward(self, x):
        torch.rand_like(x)
        torch.randn_like(x)
        torch.bernoulli(x)
        F.dropout(x, 0.5, True)
        torch.ops.aten.native_dropout.default(x, 0.5, True)
        torch.ops.aten.rand_like.default(x)
        x.uniform_()
        return torch.relu(x)


def pattern(p):
    return torch.relu(p)


def replacement(p):
    return torch.clamp(p, min=0)
