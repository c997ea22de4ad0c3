import torch


class M(torch.nn.Module):
    def forward(self, x):
        try:
            raise ValueError()
        except ValueError as e:
            x = x + 1
        return x, e
