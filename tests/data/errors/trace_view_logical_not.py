import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(3, 4).t().logical_not().view(-1)
        return x + t
