import torch.nn as nn
k = 2


class M(nn.Module):
    def forward(self, x):
        a = x * k
        k = 3
        global k
        return a
