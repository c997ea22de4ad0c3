import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(4))

    def forward(self, x):
        # while tracing, getattr() of a parameter is a Proxy, no nn.Parameter
        return x + self.get_parameter("w")
