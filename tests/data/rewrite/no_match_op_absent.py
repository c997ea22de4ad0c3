import torch


class M(torch.nn.Module):
    def forward(self, x):
        return torch.sigmoid(x) * 2


def pattern(a):
    return torch.relu(a)


def replacement(a):
    return torch.clamp(a, min=0)
