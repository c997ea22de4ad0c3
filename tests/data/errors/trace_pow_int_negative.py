import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(3, 4, dtype=torch.int64) ** -1
        return x + t
