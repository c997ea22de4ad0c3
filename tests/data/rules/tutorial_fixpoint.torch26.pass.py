# A torch.fx pass written by Graft from tutorial_rules.py, for torch 2.6.0.
# run(gm) applies the rules of RULES in order, each as one torch.fx.replace_pattern call,
# in passes until one replaces nothing (at most 3).
import torch
import torch.fx


def pattern(a1, a2):
    val1 = torch.neg(a1)
    return torch.cat([val1, a2]).sum()


def replacement(w1, w2):
    return torch.stack([w1, w2])


def max_of_stack(a, b):
    return torch.max(torch.stack([a, b]))


def max_of_maxima(a, b):
    return torch.maximum(torch.max(a), torch.max(b))


RULES = [
    (pattern, replacement),
    (max_of_stack, max_of_maxima),
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
    for _ in range(3):
        replaced = 0
        for pattern, replacement in rules:
            replaced += _replace(gm, pattern, replacement)
        if replaced == 0:
            break
    gm.recompile()
    return gm
