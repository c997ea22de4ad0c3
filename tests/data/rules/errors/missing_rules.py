# No RULES: the list is spelled `rules`.
import torch


def add_relu(a, b):
    return torch.relu(a + b)


def add_relu_clamp(a, b):
    return torch.clamp(a + b, min=0)


rules = [(add_relu, add_relu_clamp)]
