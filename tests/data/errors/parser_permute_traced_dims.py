import torch


class M(torch.nn.Module):
    def forward(self, x):
        return torch.permute(x, (x.dim(), 0))
