import torch
import torch.nn as nn


class LeafModuleCalls(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.act = nn.ReLU()
        self.attn = nn.MultiheadAttention(4, 2)

    def forward(self, x):
        a = self.lin(x)
        b = self.lin(input=a)
        c = self.act(self.act(b))
        d = self.attn(c, c, c, need_weights=False)
        return d
