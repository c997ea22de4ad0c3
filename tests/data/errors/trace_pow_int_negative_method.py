import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(3, 4, dtype=torch.int32).pow(-2)
        return x + t
