import functools
import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = functools.partial(F.layer_norm, normalized_shape=(4,))
        self.act = functools.partial(F.leaky_relu, negative_slope=0.2)

    def forward(self, x):
        return self.act(self.norm(x))
