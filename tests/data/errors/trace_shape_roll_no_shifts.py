import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(5, 3).roll([], [])
        return x + t
