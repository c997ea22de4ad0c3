import torch


class M(torch.nn.Module):
    def forward(self, x):
        return torch.flatten(x, 1) + 1


# torch's argument parser refuses a traced value where flatten wants an
# int: the pattern's own parameter, while the pattern is traced.
def pattern(x, n):
    return torch.flatten(x, n)


def replacement(x, n):
    return torch.reshape(x, (-1,))
