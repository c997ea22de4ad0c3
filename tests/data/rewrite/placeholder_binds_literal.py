import torch


class M(torch.nn.Module):
    def forward(self, x, y):
        a = torch.add(x, 2)
        b = torch.add(a, y)
        c = torch.add(b, 2.0)
        d = torch.add(c, True)
        return d


def pattern(p, q):
    return torch.add(p, q)


def replacement(p, q):
    return torch.sub(p, q)
