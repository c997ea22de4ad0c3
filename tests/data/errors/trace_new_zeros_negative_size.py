import torch


class M(torch.nn.Module):
    def forward(self, x):
        a = torch.ones(2)
        b = a.new_zeros(3, -1)
        return x
