import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.arange(3)
        t.exp_()
        return x + t
