import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.where(torch.ones(3, 4).t() > 0, 1.0, torch.zeros(4, 3)).view(-1)
        return x + t
