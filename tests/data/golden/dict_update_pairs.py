import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        cfg = {"kernel_size": 3}
        cfg |= [("padding", 1), ("stride", 2)]
        cfg.update([("bias", False)])
        self.conv = nn.Conv2d(3, 4, **cfg)
        self.names = dict(["ab", ("c", 1)])

    def forward(self, x):
        scales = {"a": 1.0}
        scales |= (("b", 2.0),)
        try:
            scales.update([("c", 1, 2)])
        except ValueError:
            scales["err"] = 7.0
        try:
            scales |= [5]
        except TypeError:
            scales["type"] = 3.0
        y = self.conv(x) * scales["b"] + scales["err"] + scales["type"]
        return y, self.names["a"], len(scales)
