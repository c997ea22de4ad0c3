import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.clamp_max(torch.ones(5, 3).t(), 2.5).view(-1)
        return x + t
