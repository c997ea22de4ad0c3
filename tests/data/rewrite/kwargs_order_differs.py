import torch


class M(torch.nn.Module):
    def forward(self, x):
        a = torch.clamp(x, min=0.0, max=6.0)
        b = torch.clamp(a, max=6.0, min=0.0)
        c = torch.clamp(b, max=6.0)
        return c


def pattern(x):
    return torch.clamp(x, max=6.0, min=0.0)


def replacement(x):
    return torch.nn.functional.relu6(x)
