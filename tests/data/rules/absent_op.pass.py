# A torch.fx pass written by Graft from absent_op_rules.py, for torch 1.13.1.
# run(gm) applies the rules of RULES in order, each as one torch.fx.replace_pattern call.
import torch
import torch.fx
import torch.nn.functional as F


def swish(x):
    return x * torch.sigmoid(x)


def silu(x):
    return F.silu(x)


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


def _replace(gm, pattern, replacement):
    try:
        return len(torch.fx.replace_pattern(gm, pattern, replacement))
    except KeyError:
        # torch.fx raises KeyError when an operation of the pattern never occurs
        # in the graph: that is no match.
        return 0


def run(gm: torch.fx.GraphModule) -> torch.fx.GraphModule:
    rules = RULES
    for pattern, replacement in rules:
        _replace(gm, pattern, replacement)
    gm.recompile()
    return gm
