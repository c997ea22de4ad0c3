import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(6, 4).unfold(1, 2, 0)
        return x + t
