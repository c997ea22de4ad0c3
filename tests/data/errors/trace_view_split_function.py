import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.split(torch.ones(6, 4), [1, 3], dim=1)[1].view(-1)
        return x + t
