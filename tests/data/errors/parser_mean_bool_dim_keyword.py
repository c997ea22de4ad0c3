import torch


class M(torch.nn.Module):
    def forward(self, x, y):
        return torch.mean(x, dim=True)
