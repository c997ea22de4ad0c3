import torch
import torch.nn as nn

class M(nn.Module):
    def forward(self, x):
        if x.sum() > 0:
            return x
        return -x
