import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(6, 4).roll((1, 2))
        return x + t
