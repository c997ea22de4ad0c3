import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(3, dtype=torch.complex64).clamp(max=1)
        return x + t
