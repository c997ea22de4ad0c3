import torch


class M(torch.nn.Module):
    def forward(self, x):
        return torch.add(x, x, alpha=x.size(0))
