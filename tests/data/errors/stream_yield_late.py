import torch


class M(torch.nn.Module):
    def forward(self, x):
        a = x + 1
        b = a * 2
        yield b
