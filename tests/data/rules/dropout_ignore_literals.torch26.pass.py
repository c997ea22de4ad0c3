# A torch.fx pass written by Graft from dropout_rules.py, for torch 2.6.0.
# run(gm) applies the rules of RULES in order, each as one replace_pattern_with_filters(..., ignore_literals=True) call.
import torch
import torch.fx
from torch.fx.subgraph_rewriter import replace_pattern_with_filters
import torch.nn.functional as F


def eval_dropout(x):
    return F.dropout(x, p=0.5, training=False)


def identity(x):
    return x


def flatten1(x):
    return torch.flatten(x, 1)


def flatten1_view(x):
    return x.view(x.size(0), -1)


RULES = [
    (eval_dropout, identity),
    (flatten1, flatten1_view),
]


def _replace(gm, pattern, replacement):
    try:
        return len(replace_pattern_with_filters(gm, pattern, replacement, ignore_literals=True))
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
