import torch


class M(torch.nn.Module):
    def forward(self, x, x2):
        input, q = x2 + (round(3.7)), x
        out = torch.outer(q, x2)
        return None


def pattern(x, x2):
    input, q = x2 + (round(3.7)), x
    return (input, q)


def replacement(x, x2):
    return (x, x)
