import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("mask", torch.ones(8, 8))

    def forward(self, x):
        T = x.size(1)
        return x + self.mask[:T, :T]
