import torch


class M(torch.nn.Module):
    def forward(self, x, y):
        a = torch.cat([x, y], 0)
        b = torch.cat([x, y], dim=0)
        c = torch.cat([a, b], 0)
        return c


def pattern(p, q):
    return torch.cat([p, q], dim=0)


def replacement(p, q):
    return torch.stack([p, q], dim=0)
