import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        s = ["b"]
        raise RuntimeError("a" + s[0], [1, 2])
