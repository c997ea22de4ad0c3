import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(3, 4).t().clamp(min=torch.zeros(4, 3)).view(-1)
        return x + t
