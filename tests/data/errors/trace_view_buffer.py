import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("m", torch.ones(4, 4).tril().t())

    def forward(self, x):
        return x + self.m.view(16)
