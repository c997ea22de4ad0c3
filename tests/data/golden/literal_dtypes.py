import torch
import torch.nn as nn


class LiteralDtypes(nn.Module):
    def forward(self, x):
        a = x.to(torch.long)
        b = x.to(torch.half)
        c = x.to(torch.float)
        d = x.to(dtype=torch.bfloat16)
        e = x.to(torch.bool)
        f = x.to(torch.double)
        g = x.to(torch.int)
        h = x.to(torch.cfloat)
        i = x.to(torch.uint8)
        return a, b, c, d, e, f, g, h, i
