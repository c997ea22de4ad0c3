import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        y = (torch
             .foo(x))
        return x
