# tutorial_rules.py with its two rules swapped: the fold of torch.max(torch.stack([a, b]))
# comes first, before the tutorial's pair has made any stack.  Rule order matters:
# - tutorial_reversed (one pass): rule 1 replaces nothing, rule 2 makes the stacks, and they
#   stay (compare tutorial, where the same rules in the other order fold them);
# - tutorial_reversed_fixpoint (--fixpoint 3): pass 2 folds them, pass 3 replaces nothing.
# torch.max occurs in the model from the start, so rule 1 fails to match rather than finding
# no candidate at all.
import torch


def max_of_stack(a, b):
    return torch.max(torch.stack([a, b]))


def max_of_maxima(a, b):
    return torch.maximum(torch.max(a), torch.max(b))


def pattern(a1, a2):
    val1 = torch.neg(a1)
    return torch.cat([val1, a2]).sum()


def replacement(w1, w2):
    return torch.stack([w1, w2])


RULES = [
    (max_of_stack, max_of_maxima),
    (pattern, replacement),
]
