import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.register_buffer("grid", torch.zeros(2, 3, 4))

    def forward(self, x):
        n, c, h, w = x.size()
        g = self.grid.shape
        numel = self.grid.size().numel()
        y = self.conv(x)
        y = y.flatten(2).transpose(1, 2).reshape(n, h * w, -1)
        z = y.view(y.size(0), *y.shape[1:])
        k = g[0] + g[-1] * len(g) + self.grid.dim() + self.grid.ndim
        return z.new_ones(g) * numel + k, y.size()[1:], self.conv.weight.shape[2:], g.count(3)
