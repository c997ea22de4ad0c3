import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.p = torch.nn.Parameter(torch.ones())

    def forward(self, x):
        return x + self.p
