import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(6, 4).split([2, 3])[0]
        return x + t
