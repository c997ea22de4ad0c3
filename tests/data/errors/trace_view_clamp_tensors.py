import torch
import torch.nn as nn


class Net(nn.Module):
    def forward(self, x):
        # clamp with two tensor bounds keeps the transposed layout
        t = torch.ones(3, 4).t()
        return x + t.clamp(torch.zeros(4, 3), torch.ones(4, 3)).view(12)
