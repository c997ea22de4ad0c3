import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        y = torch.ops.aten.relu.default(3)
        return x
