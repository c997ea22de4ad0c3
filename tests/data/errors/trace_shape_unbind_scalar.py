import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(()).unbind(-1)[0]
        return x + t
