import torch


def pattern(x):
    return torch.sigmoid(x) * x


def replacement(x):
    return torch.nn.functional.silu(x)


def hardswish_pattern(x):
    return x * torch.nn.functional.relu6(x + 3) / 6


def hardswish_replacement(x):
    return torch.nn.functional.hardswish(x)
