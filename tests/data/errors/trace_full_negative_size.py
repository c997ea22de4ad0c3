import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.full((2, -3), 1.0)
        return x
