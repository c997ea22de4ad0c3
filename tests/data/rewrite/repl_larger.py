import torch


class M(torch.nn.Module):
    def forward(self, x, y):
        a = torch.nn.functional.gelu(x)
        b = torch.nn.functional.gelu(a + y)
        return b


def pattern(x):
    return torch.nn.functional.gelu(x)


def replacement(x):
    inner = 0.7978845608 * (x + 0.044715 * torch.pow(x, 3))
    return 0.5 * x * (1.0 + torch.tanh(inner))
