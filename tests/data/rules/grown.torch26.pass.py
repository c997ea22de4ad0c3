# A torch.fx pass written by Graft from grown_rules.py, for torch 2.6.0.
# run(gm) applies the rules of RULES in order, each as one torch.fx.replace_pattern call,
# in passes until one replaces nothing (at most 4).
import torch
import torch.fx


def relu_relu(x):
    return torch.relu(torch.relu(x))


def relu_once(x):
    return torch.relu(x)


def relu_sum(x):
    return torch.relu(x).sum(1)


def clamp_sum(x):
    return torch.clamp(x, min=0).sum(1)


def sigmoid(x):
    return torch.sigmoid(x)


def hard_sigmoid(x):
    return torch.nn.functional.hardsigmoid(x)


RULES = [
    (relu_relu, relu_once),
    (relu_sum, clamp_sum),
    (sigmoid, hard_sigmoid),
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
    for _ in range(4):
        replaced = 0
        for pattern, replacement in rules:
            replaced += _replace(gm, pattern, replacement)
        if replaced == 0:
            break
    gm.recompile()
    return gm
