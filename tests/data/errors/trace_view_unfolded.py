import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(6, 4).unfold(0, 2, 1).view(-1)
        return x + t
