# The torch.fx subgraph-rewriter tutorial (data/examples/subgraph_rewriter_basic_use.py) as a
# rule set.  Rule 1 is the tutorial's own pair; rule 2 folds what rule 1 leaves behind,
# torch.max(torch.stack([w1, w2])), into the maximum of the two maxima, so it only matches
# nodes that rule 1 made in the same pass.
# Cases: tutorial (one pass: rule 2 sees rule 1's output at once), tutorial_fixpoint (a second
# pass replaces nothing and ends the loop), tutorial_dce (--dce after rules that leave no dead
# node: nothing changes).
import torch


def pattern(a1, a2):
    val1 = torch.neg(a1)
    return torch.cat([val1, a2]).sum()


def replacement(w1, w2):
    return torch.stack([w1, w2])


# the max of all elements of a stack of two tensors is the larger of their maxima; no stack
# is built
def max_of_stack(a, b):
    return torch.max(torch.stack([a, b]))


def max_of_maxima(a, b):
    return torch.maximum(torch.max(a), torch.max(b))


RULES = [
    (pattern, replacement),
    (max_of_stack, max_of_maxima),
]
