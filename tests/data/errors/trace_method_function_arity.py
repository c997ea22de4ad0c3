import torch
import torch.nn.functional as F


class M(torch.nn.Module):
    def forward(self, x):
        return F.sigmoid(x, True)
