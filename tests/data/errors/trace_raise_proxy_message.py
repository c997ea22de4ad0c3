import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x, s: str = "q"):
        raise RuntimeError("a" + s)
