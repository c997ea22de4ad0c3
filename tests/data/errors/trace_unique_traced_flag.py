import torch


class M(torch.nn.Module):
    def forward(self, x):
        y = torch.unique(x, return_counts=x.size(0) > 1)
        return x, y
