import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(6, 4).diagonal(0, 1, -1)
        return x + t
