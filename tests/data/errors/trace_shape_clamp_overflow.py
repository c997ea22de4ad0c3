import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(3, dtype=torch.int16).clamp(0, 1 << 20)
        return x + t
