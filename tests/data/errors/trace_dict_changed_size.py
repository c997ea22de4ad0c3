import math
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        d = {'a': 1}
        for k in d:
            d['b'] = 2
        return x
