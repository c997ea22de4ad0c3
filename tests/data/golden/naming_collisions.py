import torch
import torch.nn as nn


class NamingCollisions(nn.Module):
    def forward(self, x, input, inputIds, type, device, inf):
        a = torch.sum(x) + x.sum()
        b = torch.max(x).float()
        c = x.shape
        d = torch.abs(x) + torch.round(x) + torch.all(x) + torch.min(x)
        e = x.int().type(torch.float32).pow(2)
        f = torch.pow(x, 2) ** 2
        return a + b + c[0] + input + inputIds + d + e + f + type + device + inf
