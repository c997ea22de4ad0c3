import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.where(torch.ones(4, 3), torch.ones(4, 3), 0.0)
        return x + t
