# Rule 2's replacement takes one parameter where its pattern has two, and the pattern matches:
# torch fails when it applies the rule, after rule 1 has been applied.
import torch
import torch.nn.functional as F


def swish(x):
    return x * torch.sigmoid(x)


def silu(x):
    return F.silu(x)


def add_relu(a, b):
    return torch.relu(a + b)


def relu_only(s):
    return torch.relu(s)


RULES = [
    (swish, silu),
    (add_relu, relu_only),
]
