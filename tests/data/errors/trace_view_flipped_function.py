import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.flip(torch.ones(2, 3, 4).transpose(0, 2), [1]).view(24)
        return x + t
