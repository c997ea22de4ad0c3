import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        match {"a": 1, "b": 2}:
            case {"b": 2, "a": p, "a": q}:
                x = x + p
        return x
