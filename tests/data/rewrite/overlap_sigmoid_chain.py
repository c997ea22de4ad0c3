import torch


class M(torch.nn.Module):
    def forward(self, x):
        x = torch.sigmoid(x)
        x = torch.sigmoid(x)
        x = torch.sigmoid(x)
        x = torch.sigmoid(x)
        return x


def pattern(x):
    return torch.sigmoid(torch.sigmoid(x))


def replacement(x):
    return torch.neg(x)
