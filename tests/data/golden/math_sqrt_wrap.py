import math
import torch
import torch.nn as nn


class MathWrap(nn.Module):
    def forward(self, q, k):
        d = math.sqrt(k.size(-1))
        scores = q @ k.transpose(-2, -1) / d
        n = math.floor(q.size(0) / 2)
        c = math.sqrt(16)
        return scores * c, n
