# graft-args: --ignore-literals
import torch


class M(torch.nn.Module):
    def forward(self, x):
        a = x.to('cpu')
        b = a.to(torch.float16)
        c = b.to(x)
        d = c.to(device='cpu')
        return d


def pattern(x):
    return x.to('cuda')


def replacement(x):
    return x.cpu()
