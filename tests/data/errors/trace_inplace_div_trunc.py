import torch


class M(torch.nn.Module):
    def forward(self, x):
        t = torch.ones(3, dtype=torch.long)
        t.div_(2.5, rounding_mode='trunc')
        return x + t
