import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.eye(2, -1)
        return x
