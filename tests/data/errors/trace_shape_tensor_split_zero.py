import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(6, 4).tensor_split(0)[0]
        return x + t
