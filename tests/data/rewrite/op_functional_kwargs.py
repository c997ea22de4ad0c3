import torch
import torch.nn.functional as F


class M(torch.nn.Module):
    def forward(self, x):
        a = F.relu(x, inplace=True)
        b = F.relu(a)
        c = F.relu(b, inplace=False)
        d = F.relu(c, inplace=True)
        return d


def pattern(x):
    return F.relu(x, inplace=True)


def replacement(x):
    return torch.relu_(x)
