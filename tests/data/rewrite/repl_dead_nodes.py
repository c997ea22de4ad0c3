import torch


class M(torch.nn.Module):
    def forward(self, x):
        a = torch.relu(torch.neg(x))
        b = torch.relu(torch.neg(a))
        return b


def pattern(p):
    return torch.relu(torch.neg(p))


def replacement(p):
    n = torch.neg(p)
    dead = torch.sigmoid(p)
    return torch.relu(n) + 1
