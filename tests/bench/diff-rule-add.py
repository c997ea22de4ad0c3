# bench-diff: a rule that matches 8,535 times in `gen-module.py 50000`.
import torch


def pattern(x, y):
    return x + y


def replacement(x, y):
    return torch.add(x, y)
