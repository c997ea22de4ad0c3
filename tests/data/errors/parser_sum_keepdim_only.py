import torch


class M(torch.nn.Module):
    def forward(self, x):
        return torch.sum(x, keepdim=True)
