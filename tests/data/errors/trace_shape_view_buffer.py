import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("mask", torch.tril(torch.ones(8, 8)).view(2, 1, 8, 8))

    def forward(self, x):
        return x.masked_fill(self.mask == 0, 0.0)
