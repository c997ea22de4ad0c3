import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(3).fliplr()
        return x + t
