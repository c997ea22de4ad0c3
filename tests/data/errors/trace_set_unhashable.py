import torch


class M(torch.nn.Module):
    def forward(self, x):
        seen = {(1, 2), [3]}
        return x + len(seen)
