import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(3, 4).repeat_interleave(2, dim=0).t().view(-1)
        return x + t
