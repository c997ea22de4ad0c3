import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.linspace(0, 1, -1)
        return x
