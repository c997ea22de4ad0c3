# Pairs made of indices into PATTERNS instead of the patterns themselves: the first pattern is
# an int.
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


PATTERNS = [add_relu, swish]
RULES = [(0, add_relu_clamp), (1, silu)]
