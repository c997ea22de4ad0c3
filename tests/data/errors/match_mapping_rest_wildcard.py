import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        match (1, 2):
            case {**_}:
                x = x + 1
        return x
