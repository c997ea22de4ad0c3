import torch


class M(torch.nn.Module):
    def forward(self, x):
        a = torch.relu(x)
        b = a.relu()
        c = torch.relu(b)
        return c.relu()


def pattern(x):
    return torch.relu(x)


def replacement(x):
    return torch.nn.functional.relu(x)
