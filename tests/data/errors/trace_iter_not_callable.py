import torch


class M(torch.nn.Module):
    def forward(self, x):
        it = iter(3, 0)
        return x + next(it)
