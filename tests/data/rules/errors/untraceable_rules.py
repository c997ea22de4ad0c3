# Rule 2's pattern branches on a traced value, which symbolic tracing cannot follow.  Rule 1 is
# good and matches: torch only traces rule 2's pattern after rule 1 has been applied.
import torch
import torch.nn.functional as F


def swish(x):
    return x * torch.sigmoid(x)


def silu(x):
    return F.silu(x)


def relu_if_positive(a, b):
    s = a + b
    if s.sum() > 0:
        return torch.relu(s)
    return s


def clamp_sum(a, b):
    return torch.clamp(a + b, min=0)


RULES = [
    (swish, silu),
    (relu_if_positive, clamp_sum),
]
