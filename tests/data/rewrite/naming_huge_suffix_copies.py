import torch


# The graph's `add` and `neg` count on from a 19-digit and a 30-digit
# suffix (torch 2.x); the replacement's copies are named from those counts.
class M(torch.nn.Module):
    def forward(self, add_1000000000000000000, neg_123456789012345678901234567890, x):
        a = x + 1
        b = a.neg() + add_1000000000000000000
        c = b.neg() + neg_123456789012345678901234567890
        return c.neg() + 1


def pattern(x):
    return x.neg()


def replacement(x):
    return (x + 1).neg().neg().neg()
