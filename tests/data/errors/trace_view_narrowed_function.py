import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.narrow(torch.ones(2, 3, 4), 2, 1, 3).view(-1)
        return x + t
