# RULES is a tuple of pairs, not a list.  Not a bad file for the oracle, which takes a list or
# a tuple (fx-reference's load_rules); cli.md says a list.
import torch
import torch.nn.functional as F


def add_relu(a, b):
    return torch.relu(a + b)


def add_relu_clamp(a, b):
    return torch.clamp(a + b, min=0)


def swish(x):
    return x * torch.sigmoid(x)


def silu(x):
    return F.silu(x)


RULES = (
    (add_relu, add_relu_clamp),
    (swish, silu),
)
