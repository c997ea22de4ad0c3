import torch


class M(torch.nn.Module):
    def forward(self, x):
        return x, 2 ** 10 ** 9
