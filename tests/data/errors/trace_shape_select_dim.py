import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(2, 3, 4).select(3, 0)
        return x + t
