import torch

scale = 2


class M(torch.nn.Module):
    def forward(self, x):
        # `scale` is bound further down, so it is this function's local all
        # through: reading it here is UnboundLocalError, not the global.
        y = x * scale
        scale = y.sum()
        return y + scale
