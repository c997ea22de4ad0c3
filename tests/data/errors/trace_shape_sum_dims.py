import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(2, 3).sum((0, -2))
        return x + t
