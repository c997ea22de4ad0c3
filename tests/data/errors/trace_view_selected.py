import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(2, 3, 4).transpose(0, 2).select(1, 0).view(8)
        return x + t
