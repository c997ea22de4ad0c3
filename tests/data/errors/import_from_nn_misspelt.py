import torch
import torch.nn as nn
from torch.nn import BatchNorm4d


class M(nn.Module):
    # torch.nn has no BatchNorm4d: Python's ImportError at the import, which
    # also names torch/nn/__init__.py where torch is installed (Graft does not).
    def forward(self, x):
        return x
