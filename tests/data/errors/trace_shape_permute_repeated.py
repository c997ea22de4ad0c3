import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(2, 3).permute(0, 0)
        return x + t
