import math
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        s = {1}
        for k in s:
            s.add(2)
        return x
