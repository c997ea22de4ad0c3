# A replacement that names an imported module (torch.nn.functional) where F.silu was meant.
import torch
import torch.nn.functional as F


def swish(x):
    return x * torch.sigmoid(x)


RULES = [(swish, F)]
