import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        a = torch.finfo(torch.float32).min
        b = torch.finfo(torch.float16).max
        c = torch.finfo().eps
        d = torch.iinfo(torch.int32).max
        e = torch.finfo(torch.bfloat16).tiny
        f = torch.finfo(torch.double)
        g = (f.bits, f.resolution, f.smallest_normal, f.dtype, torch.iinfo(torch.uint8).min)
        h = torch.iinfo(torch.long).min
        return x.clamp(min=a), b, c, d, e, g, h, torch.finfo(type=torch.half).eps
