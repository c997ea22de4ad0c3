# A torch.fx pass written by Graft from swish_rules.py, for torch 2.6.0.
# run(gm) applies the rules of RULES in order, each as one torch.fx.replace_pattern call.
import torch
import torch.fx
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
