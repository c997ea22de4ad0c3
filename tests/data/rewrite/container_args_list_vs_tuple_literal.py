import torch


class M(torch.nn.Module):
    def forward(self, x):
        a = x.mean([2, 3])
        b = x.mean((2, 3))
        c = x.mean(2, 3)
        d = x.mean([2, 3], keepdim=True)
        return a, b, c, d


def pattern(x):
    return x.mean([2, 3])


def replacement(x):
    return torch.nn.functional.adaptive_avg_pool2d(x, 1).flatten(1)
