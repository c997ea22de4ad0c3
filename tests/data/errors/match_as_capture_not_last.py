import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        match (1, 2):
            case t as u:
                x = x + 1
            case (1, 2):
                x = x - 1
        return x
