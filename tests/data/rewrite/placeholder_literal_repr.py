import torch


class M(torch.nn.Module):
    def forward(self, x):
        a = x.to('cpu')
        b = a.to(torch.float16)
        c = b.to(1.5)
        d = c.to(None)
        e = d.to((1, 'a'))
        return e


def pattern(x, d):
    return x.to(d)


def replacement(x, d):
    return x.type(d)
