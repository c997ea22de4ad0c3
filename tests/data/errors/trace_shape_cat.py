import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.cat([torch.ones(2, 3), torch.ones(0), torch.ones(2, 4)])
        return x + t
