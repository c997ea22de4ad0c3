import torch
import torch.nn as nn


class GetitemTensorIndex(nn.Module):
    def forward(self, x, idx, mask):
        a = x[idx]
        b = x[mask]
        c = x[:, idx]
        d = x[idx, idx]
        e = x[[0, 2]]
        return a, b, c, d, e
