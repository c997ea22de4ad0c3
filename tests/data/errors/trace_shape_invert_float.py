import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = ~torch.ones(3)
        return x + t
