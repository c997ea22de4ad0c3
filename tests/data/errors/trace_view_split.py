import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(6, 4).t().split(2)[0].view(-1)
        return x + t
