import torch
import torch.nn as nn
import torch.nn.functional as F


class NormPool(nn.Module):
    def forward(self, x):
        a = F.layer_norm(x, (4,))
        b = F.max_pool2d(x, 2)
        c = F.max_pool2d(x, kernel_size=3, stride=2, padding=1)
        d = F.adaptive_avg_pool2d(x, (1, 1))
        e = F.avg_pool2d(x, 2)
        f = F.adaptive_max_pool2d(x, 1)
        g = F.normalize(x, dim=1)
        h = F.max_pool2d(x, 2, return_indices=True)
        return a, b, c, d, e, f, g, h
