import torch.nn as nn
k = 2


class M(nn.Module):
    def forward(self, x):
        k: int = 3
        global k
        return x * k
