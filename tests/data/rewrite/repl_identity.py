import torch


class M(torch.nn.Module):
    def forward(self, x):
        a = x.contiguous()
        b = a.relu().contiguous()
        c = b.contiguous()
        return a + c


def pattern(x):
    return x.contiguous()


def replacement(x):
    return x
