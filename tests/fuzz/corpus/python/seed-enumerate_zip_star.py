import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.heads = nn.ModuleList([nn.Linear(4, 2) for _ in range(3)])
        self.weights = [0.5, 0.25, 0.25]

    def forward(self, x):
        outs = [w * h(x) for i, (h, w) in enumerate(zip(self.heads, self.weights)) if i != 1]
        a, b = outs
        pairs = list(zip(*[(a, b), (b, a)]))
        return sum(outs), pairs[0][1]
