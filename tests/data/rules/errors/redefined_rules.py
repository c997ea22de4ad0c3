# A rules file that reuses its names: the pair `pattern`/`replacement` is defined, put in RULES,
# then `pattern` is defined again.  Python's RULES holds the first `pattern` (torch applies it,
# and fx-reference names it `?`, since no module-level name holds it any more); Graft reads a
# rule's definitions by name, so it refuses the file at the pair.
import torch


def pattern(a, b):
    return torch.relu(a + b)


def replacement(a, b):
    return torch.relu(torch.add(a, b))


RULES = [(pattern, replacement)]


def pattern(x):
    return x * torch.sigmoid(x)
