import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self, act="gelu"):
        super().__init__()
        self.act = act

    def forward(self, x):
        match self.act:
            case "relu":
                return x.relu()
            case "gelu" | "silu":
                return torch.nn.functional.gelu(x)
            case _:
                return x
