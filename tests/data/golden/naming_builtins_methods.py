import torch
import torch.nn as nn


class NamingBuiltinsMethods(nn.Module):
    def forward(self, x):
        a = x.float()
        b = x.type(torch.int32)
        c = x.round()
        d = x.all()
        e = x.__getitem__(0)
        f = x.__neg__()
        g = x.max()
        h = x.len()
        i = x.slice(1)
        return a, b, c, d, e, f, g, h, i
