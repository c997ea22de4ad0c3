import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.shape = [2, -1]
        self.perm = (1, 0)

    def forward(self, x):
        y = x.reshape(*self.shape)
        z = y.permute(*self.perm)
        w = torch.zeros(*[2, 3]).sum() + z
        return torch.cat([*[w, w], z], dim=0)
