import torch
import torch.nn as nn


class DeadCode(nn.Module):
    def forward(self, x):
        unused = x * 2
        also_unused = torch.relu(unused)
        x.neg()
        y = x + 1
        return y
