import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.arange(3)
        t.clamp_(0.5, 2)
        return x
