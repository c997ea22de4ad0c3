import torch


class M(torch.nn.Module):
    def forward(self, x):
        a = torch.sigmoid(x)
        b = a.relu()
        return b


def pattern(x):
    y = x.relu()
    return x, y


def replacement(x):
    return x, x.neg()
