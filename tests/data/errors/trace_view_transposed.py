import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(2, 3).t().view(6)
        return x + t
