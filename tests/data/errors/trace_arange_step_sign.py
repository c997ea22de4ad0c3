import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.arange(5, 0, 1)
        x = x + t
        return x
