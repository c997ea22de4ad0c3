import torch
import torch.nn as nn


# A layer made on a CUDA device: its torch.empty is torch's AssertionError
# (Graft made the layer).


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.l = nn.Linear(2, 2, device="cuda")

    def forward(self, x):
        return self.l(x)
