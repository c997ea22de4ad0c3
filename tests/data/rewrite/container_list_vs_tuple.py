import torch


class M(torch.nn.Module):
    def forward(self, x, y):
        a = torch.cat((x, y), 0)
        b = torch.cat([a, y], 0)
        c = torch.cat([b, x], 0)
        return c


def pattern(p, q):
    return torch.cat([p, q], 0)


def replacement(p, q):
    return torch.cat((q, p), 0)
