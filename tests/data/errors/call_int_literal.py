import torch


class M(torch.nn.Module):
    def forward(self, x):
        # An int called: Python's TypeError once the line runs.
        return 1(x)
