# A rule that matches nothing next to one that matches: neg(neg(x)) -> x finds negs in the
# tutorial's model (so the matcher has candidates) but never two in a row; its line says
# `replaced 0 matches` and the tutorial's pair still applies.  Case no_match.
import torch


def double_neg(x):
    return torch.neg(torch.neg(x))


def identity(x):
    return x


def pattern(a1, a2):
    val1 = torch.neg(a1)
    return torch.cat([val1, a2]).sum()


def replacement(w1, w2):
    return torch.stack([w1, w2])


RULES = [
    (double_neg, identity),
    (pattern, replacement),
]
