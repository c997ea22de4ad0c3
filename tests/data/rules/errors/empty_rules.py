# RULES is an empty list: every rule commented out.
import torch


def add_relu(a, b):
    return torch.relu(a + b)


def add_relu_clamp(a, b):
    return torch.clamp(a + b, min=0)


RULES = [
    # (add_relu, add_relu_clamp),
]
