# Hand-written swish -> torch.nn.functional.silu, in both operand orders: the matcher compares
# arguments in order, so x * sigmoid(x) and sigmoid(x) * x need a rule each.  One replacement
# function serves both rules (the per-rule lines name it twice).
# Cases: swish (no --entry: the file's first class, the encoder, which has only the first
# form), entry (--entry Decoder: the second class, with both forms).
import torch
import torch.nn.functional as F


def swish(x):
    return x * torch.sigmoid(x)


def swish_commuted(x):
    return torch.sigmoid(x) * x


def silu(x):
    return F.silu(x)


RULES = [
    (swish, silu),
    (swish_commuted, silu),
]
