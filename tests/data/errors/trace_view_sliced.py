import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(4, 6)[:, :3].view(12)
        return x + t
