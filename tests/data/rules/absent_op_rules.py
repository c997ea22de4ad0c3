# Rules whose ops never occur in the model (the tutorial's), as a general rule library applied
# to a model it was not written for: each is 0 matches, and the last rule still applies.
# Case absent_op.
# Plain torch raises KeyError for these: 1.13.1 for rules 1 and 2 (an anchor op without any
# candidate node), 2.6 for rule 2 (two outputs, one of whose ops occurs while the other does
# not).  The contract, and the oracle, make them 0 matches; a pass run by plain torch has to do
# the same.
import torch
import torch.nn.functional as F


# 1. hand-written swish (mul never occurs)
def swish(x):
    return x * torch.sigmoid(x)


def silu(x):
    return F.silu(x)


# 2. the max and the min of one tensor -> one aminmax (two outputs: torch.max occurs, torch.min
# never does)
def max_and_min(x):
    return torch.max(x), torch.min(x)


def aminmax(x):
    r = torch.aminmax(x)
    return r.max, r.min


def pattern(a1, a2):
    val1 = torch.neg(a1)
    return torch.cat([val1, a2]).sum()


def replacement(w1, w2):
    return torch.stack([w1, w2])


RULES = [
    (swish, silu),
    (max_and_min, aminmax),
    (pattern, replacement),
]
