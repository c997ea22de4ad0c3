import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        y = torch.ops.aten.add(torch.ones(2), 1, 2, 3)
        return x
