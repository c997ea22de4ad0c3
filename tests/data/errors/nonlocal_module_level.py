import torch.nn as nn

nonlocal x


class M(nn.Module):
    def forward(self, x):
        return x
