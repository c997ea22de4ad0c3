# The replacement takes one parameter where its pattern has two, but the pattern never matches
# (relu occurs, never of a product): torch only compares the counts for a match, so this is
# no error, and the good rule after it applies.
import torch


def mul_relu(a, b):
    return torch.relu(a * b)


def relu_only(s):
    return torch.relu(s)


def add_relu(a, b):
    return torch.relu(a + b)


def add_relu_clamp(a, b):
    return torch.clamp(a + b, min=0)


RULES = [
    (mul_relu, relu_only),
    (add_relu, add_relu_clamp),
]
