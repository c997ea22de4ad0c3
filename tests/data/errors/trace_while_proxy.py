import torch
import torch.nn as nn

class M(nn.Module):
    def forward(self, x):
        while x.max() > 1:
            x = x / 2
        return x
