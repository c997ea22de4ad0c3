import torch
import torch.nn as nn


# A module of a list called in a loop that never ends: the loop stops at
# 100,000 passes (GRAFT_MAX_WHILE_PASSES), and its 100,000 names counted on
# from layers_2 (layers_1 stays free) took minutes when each count started
# over from 2.
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.ReLU() for _ in range(4)])

    def forward(self, x):
        while True:
            x = self.layers[2](x)
        return x
