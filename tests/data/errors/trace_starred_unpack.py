import torch
import torch.nn as nn

class M(nn.Module):
    def forward(self, x):
        a, *b = x.chunk(3)
        return a
