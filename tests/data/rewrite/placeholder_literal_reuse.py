import torch


class M(torch.nn.Module):
    def forward(self, x):
        a = torch.mul(torch.add(x, 2), 2.0)
        b = torch.mul(torch.add(a, 2), 3)
        c = torch.mul(torch.add(b, True), 1)
        return c


def pattern(x, k):
    return torch.mul(torch.add(x, k), k)


def replacement(x, k):
    return x.addcmul(x, x, value=k)
