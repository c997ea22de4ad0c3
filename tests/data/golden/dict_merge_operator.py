from collections import OrderedDict

import torch
import torch.nn as nn
import torch.nn.functional as F


class M(nn.Module):
    def __init__(self):
        super().__init__()
        base = {"kernel_size": 3, "padding": 1}
        self.conv = nn.Conv2d(3, 4, **(base | {"stride": 2}))
        self.pool_cfg = base | {"padding": 0, "stride": 1}
        alias = base
        base |= {"kernel_size": 5}
        self.alias_kernel = alias["kernel_size"]
        self.ordered = OrderedDict(b=1) | {"a": 2, "b": 3}

    def forward(self, x):
        y = self.conv(x)
        y = F.max_pool2d(y, **self.pool_cfg)
        keys = list(self.ordered)
        out = {"y": y} | {"k": self.alias_kernel} | {"y": y + 1, "n": len(keys)}
        return out
