import torch
import torch.nn.functional as F


def helper(t):
    return t * 2


def forward(x, y, alpha=0.5):
    z = helper(x) + y * alpha
    return F.relu(z)
