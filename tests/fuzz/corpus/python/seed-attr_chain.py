import torch
import torch.nn as nn


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 4)
        self.norm = nn.LayerNorm(4, eps=1e-3)

    def forward(self, x):
        return self.norm(self.fc(x))


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(4, 8)
        self.head = Head()
        self.scale = 0.5


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = Encoder()

    def forward(self, x):
        h = self.enc.proj(x)
        y = self.enc.head.fc(h) + self.enc.head.fc.bias
        y = y * self.enc.scale + self.enc.head.norm.eps
        w = self.enc.head.fc.weight.t()
        n = self.enc.head.fc.out_features + self.enc.proj.in_features
        return self.enc.head(h) + y.sum() * n, w.shape, self.enc.head.norm.weight[0]
