import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        d = {"a": 1}
        d |= [("b", 2), ("c", 3, 4)]
        return x * d["b"]
