import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        t = torch.ones(3)
        return x + t.softmax()
