import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(3, 4).t().clamp(torch.zeros(5))
        return x + t
