import torch
import torch.nn as nn

class M(nn.Module):
    def forward(self, x):
        return x if x.sum() > 0 else -x
