import torch


class M(torch.nn.Module):
    def forward(self, x):
        a = torch.relu(x)
        b = a.relu()
        c = torch.relu(b)
        return c.relu()


def pattern(x):
    return x.relu()


def replacement(x):
    return x.clamp_min(0)
