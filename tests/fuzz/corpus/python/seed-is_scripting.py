import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        if torch.jit.is_scripting():
            return x
        if not torch.jit.is_tracing():
            x = x + 1
        return self.lin(x)
