import torch
import torch.nn.functional as F


class M(torch.nn.Module):
    def forward(self, x):
        a = F.dropout(x, 0.1, False)
        b = F.dropout(a.relu(), 0.5, False)
        c = F.dropout(b, p=0.5, training=False)
        return c


def pattern(x, p):
    return F.dropout(x, p, False)


def replacement(x, p):
    return x
