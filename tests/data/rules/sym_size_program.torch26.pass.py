# A torch.fx pass written by Graft from sym_size_program_rules.py, for torch 2.6.0.
# run(gm) applies the rules of RULES in order, each as one torch.fx.replace_pattern call.
import torch
import torch.fx


aten = torch.ops.aten


def sym_size(x):
    return aten.sym_size.int(x, 0)


def sym_size_neg(x):
    return aten.neg.default(aten.sym_size.int(x, 0))


def neg(s):
    return aten.neg.default(s)


def neg_size(s):
    return aten.mul(s, -1)


def view_size(x, s):
    return aten.view.default(x, [s, -1, 4])


def view_size_new(x, s):
    return aten.view.default(x, [aten.sym_size.int(x, 0), -1, 4])


RULES = [
    (sym_size, sym_size_neg),
    (neg, neg_size),
    (view_size, view_size_new),
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
