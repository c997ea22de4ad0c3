import torch


class M(torch.nn.Module):
    def forward(self, x):
        a = torch.clamp(x, min=None, max=1.0)
        b = torch.clamp(a, min=0.0, max=1.0)
        c = torch.clamp(b, min=None, max=1.0)
        d = torch.clamp(c, min=False, max=1.0)
        return d


def pattern(x):
    return torch.clamp(x, min=None, max=1.0)


def replacement(x):
    return torch.clamp_max(x, 1.0)
