# The replacement returns two values where its pattern returns one, and the pattern matches.
import torch


def add_relu(a, b):
    return torch.relu(a + b)


def add_and_relu(a, b):
    s = a + b
    return s, torch.relu(s)


RULES = [(add_relu, add_and_relu)]
