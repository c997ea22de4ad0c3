import torch
import torch.nn as nn


class TorchFunctions(nn.Module):
    def forward(self, x, y):
        a = torch.cat([x, y], dim=1)
        b = torch.stack((x, y))
        c = torch.relu(x)
        d = torch.add(x, y, alpha=2)
        e = torch.sum(x, 1)
        f = torch.max(x)
        g = torch.flatten(x, 1)
        h = torch.matmul(x, y)
        i = torch.where(x > 0, x, y)
        j = torch.zeros_like(x)
        k = torch.sigmoid(torch.tanh(x))
        return a, b, c, d, e, f, g, h, i, j, k
