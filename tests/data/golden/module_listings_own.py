import torch
import torch.nn as nn

class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(3))
        self.register_buffer("b", torch.zeros(3))

    def forward(self, x):
        for name, p in self.named_parameters():
            x = x + p
        for p in self.parameters():
            x = x * p
        for name, b in self.named_buffers():
            x = x - b
        return x
