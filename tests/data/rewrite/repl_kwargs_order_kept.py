import torch


class M(torch.nn.Module):
    def forward(self, x):
        return x.sum(1).clamp(0, 6)


def pattern(x):
    return x.sum(1).clamp(0, 6)


def replacement(x):
    return torch.clamp(x.sum(dim=1, keepdim=False), max=6, min=0)
