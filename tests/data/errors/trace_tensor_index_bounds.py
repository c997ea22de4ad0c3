import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.zeros(3, 4)
        return x + t[None, 1:, -5]
