import torch


class M(torch.nn.Module):
    def forward(self, x):
        y = divmod(x, 2)
        return x, y
