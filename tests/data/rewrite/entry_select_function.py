# graft-args: --entry model --pattern p --replacement r
import torch


class Other(torch.nn.Module):
    def forward(self, x):
        return x.neg()


def model(x, y):
    return torch.matmul(x, y.t()) + torch.matmul(y, x.t())


def p(a, b):
    return torch.matmul(a, b.t())


def r(a, b):
    return torch.einsum('ij,kj->ik', a, b)
