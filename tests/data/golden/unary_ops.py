import torch
import torch.nn as nn


class UnaryOps(nn.Module):
    def forward(self, x):
        a = -x
        b = +x
        c = ~x
        d = -(-x)
        return a, b, c, d
