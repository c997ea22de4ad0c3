# The pattern of the dce_model_* cases: it matches nothing, so their rewrite is
# the traced model, and --dce shows what torch's eliminate_dead_code erases in it.
import torch


def pattern(x):
    return torch.erfinv(torch.erfinv(x))


def replacement(x):
    return x
