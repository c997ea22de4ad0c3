import torch


class M(torch.nn.Module):
    def forward(self, x):
        return torch.mean(x, keepdim=True)
