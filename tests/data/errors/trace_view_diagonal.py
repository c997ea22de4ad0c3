import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(2, 3, 4).diagonal(0, 1, 2).view(-1)
        return x + t
