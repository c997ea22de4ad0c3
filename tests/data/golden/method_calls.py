import torch
import torch.nn as nn


class MethodCalls(nn.Module):
    def forward(self, x):
        a = x.view(-1, 4)
        b = a.sum(dim=1, keepdim=True)
        c = x.permute(1, 0).contiguous()
        d = x.transpose(0, 1).reshape(2, -1)
        e = x.to(torch.float16)
        f = x.clamp(min=0.0, max=1.0)
        g = x.size(0)
        h = x.view(g, -1)
        i = x.__add__(1)
        return a, b, c, d, e, f, h, i
