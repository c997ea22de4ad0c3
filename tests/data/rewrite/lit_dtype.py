import torch


class M(torch.nn.Module):
    def forward(self, x):
        a = x.to(torch.float16)
        b = a.to(torch.float32)
        c = b.to(torch.half)
        d = c.to(dtype=torch.float16)
        return d


def pattern(x):
    return x.to(torch.float16)


def replacement(x):
    return x.half()
