import torch


class M(torch.nn.Module):
    def forward(self, x, y):
        return torch.addmm(y, x, x.t()).relu()


def pattern(b, a):
    return torch.addmm(b, a, a.t())


def replacement(b, a):
    return a @ a.t()
