import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(3, 4).t().clamp(0, 1).view(12)
        return x + t
