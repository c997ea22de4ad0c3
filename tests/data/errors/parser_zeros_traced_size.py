import torch


class M(torch.nn.Module):
    def forward(self, x):
        return torch.zeros((x.size(0), 2)) + x
