import math
import torch


class M(torch.nn.Module):
    def forward(self, x):
        return x, 1.7976931348623157e308 ** 2
