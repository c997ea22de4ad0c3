import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("t", torch.zeros(3, 4))
        self.t[..., None, 4] = 1.0

    def forward(self, x):
        return x + self.t
