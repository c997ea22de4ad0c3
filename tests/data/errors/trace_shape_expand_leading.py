import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(2, 3).expand(-1, 2, 3)
        return x + t
