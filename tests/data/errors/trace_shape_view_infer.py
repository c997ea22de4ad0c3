import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(8, 8).view(3, -1)
        return x + t
