import torch


class M(torch.nn.Module):
    def forward(self, x):
        a = x.permute((0, 2, 1)).reshape((4, (2)))
        b = x.permute(0, 2, 1).reshape(4, 2)
        c = x.permute([0, 1, 2]).reshape([4, 2])
        return a, b, c


def pattern(x):
    return x.permute(0, 2, 1).reshape(4, 2)


def replacement(x):
    return x.transpose(1, 2).flatten()
