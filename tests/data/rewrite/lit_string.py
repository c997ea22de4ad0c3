import torch
import torch.nn.functional as F


class M(torch.nn.Module):
    def forward(self, x):
        a = F.pad(x, (1, 1), mode='reflect')
        b = F.pad(a, (1, 1), mode='constant')
        c = F.pad(b, (1, 1), mode='reflect')
        d = F.pad(c, (1, 1), mode='Reflect')
        return d


def pattern(x):
    return F.pad(x, (1, 1), mode='reflect')


def replacement(x):
    return F.pad(x, (1, 1), mode='replicate')
