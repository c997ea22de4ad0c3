import torch
import torch.nn as nn


class ParametersBuffers(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(3))
        self.register_buffer("buf", torch.zeros(3))
        self.register_buffer("running", torch.ones(3), persistent=False)

    def forward(self, x):
        a = x * self.w + self.w
        b = a + self.buf + self.buf
        c = b - self.running
        return c
