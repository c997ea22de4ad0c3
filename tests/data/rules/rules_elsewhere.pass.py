# A torch.fx pass written by Graft from raise_aten_rules.py, for torch 1.13.1.
# run(gm) applies the rules of RULES in order, each as one torch.fx.replace_pattern call.
import torch
import torch.fx


aten = torch.ops.aten


def addmm_t(b, x, w):
    return aten.addmm.default(b, x, aten.t.default(w))


def linear(b, x, w):
    return aten.linear.default(x, w, b)


def internal_softmax(x):
    return aten._softmax.default(x, -1, False)


def softmax(x):
    return aten.softmax.int(x, -1)


RULES = [
    (addmm_t, linear),
    (internal_softmax, softmax),
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
