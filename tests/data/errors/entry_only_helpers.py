import torch


def helper(x):
    return x + 1


def other(x):
    return x * 2
