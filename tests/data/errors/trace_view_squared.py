import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(3, 4).t().square().view(12)
        return x + t
