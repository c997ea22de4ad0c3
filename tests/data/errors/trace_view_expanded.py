import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(3).expand(2, 3).view(6)
        return x + t
