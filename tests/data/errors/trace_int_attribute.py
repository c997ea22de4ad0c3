import math
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        y = (1).foo
        return x
