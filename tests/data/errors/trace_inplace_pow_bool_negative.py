import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(3, dtype=torch.bool); t.pow_(-1)
        return x + t
