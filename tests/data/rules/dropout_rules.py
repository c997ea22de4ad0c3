# Inference clean-up: eval-mode dropout is the identity, and the input's flatten becomes a view.
# The dropout pattern is written with one probability, 0.5, which the model never uses:
# - dropout (no options): literals must be equal, so rule 1 replaces nothing;
# - dropout_ignore_literals (--ignore-literals): any literal matches a literal, so both
#   dropouts go, whatever their p (rule 2 is unaffected: its replacement's literals are its own).
import torch
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
