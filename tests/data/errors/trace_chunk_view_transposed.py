import torch


class M(torch.nn.Module):
    def forward(self, x):
        a = torch.ones(2, 3).t()
        b = a.chunk(1)[0].view(6)
        return x
