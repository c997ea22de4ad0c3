import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(8, 8).reshape(-1, 2, -1)
        return x + t
