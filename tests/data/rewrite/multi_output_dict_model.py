import torch


class M(torch.nn.Module):
    def forward(self, x):
        m = x.max(dim=1)
        v = m[0]
        i = m[1]
        return {'values': v * 2, 'indices': i}


def pattern(p):
    m = p.max(dim=1)
    return m[0], m[1]


def replacement(p):
    return p.amax(dim=1), p.argmax(dim=1)
