import torch


class M(torch.nn.Module):
    def forward(self, x):
        for _ in range(8):
            x = x.tanh()
        return x


def pattern(x):
    return x.tanh().tanh().tanh()


def replacement(x):
    return x.tanh().mul(3)
