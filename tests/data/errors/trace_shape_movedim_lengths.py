import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(6, 4).movedim((0, 1), (1,))
        return x + t
