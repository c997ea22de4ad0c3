import torch


class M(torch.nn.Module):
    def forward(self, x, w):
        relu = x.relu()
        sigmoid = relu.sigmoid()
        neg = w.neg()
        add = relu + neg
        return add * sigmoid


def pattern(p, q):
    r = p.relu()
    return r, r + q


def replacement(p, q):
    r = p.tanh()
    return r, r - q
