import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = Block()
        self.b = nn.Sequential(nn.Linear(4, 4), nn.ReLU())
        self.w = nn.Parameter(torch.zeros(4))
        self.bn = nn.BatchNorm1d(4)

    def forward(self, x):
        names = [n for n, _ in self.named_parameters()]
        bufs = [n for n, _ in self.named_buffers()]
        mods = [n for n, _ in self.named_modules()]
        ch = [n for n, _ in self.named_children()]
        nch = len(list(self.children()))
        nm = len(list(self.modules()))
        np_ = len(list(self.parameters()))
        nb = len(list(self.buffers()))
        nr = [n for n, _ in self.named_parameters(recurse=False)]
        dt = next(self.parameters()).dtype
        dev = next(self.parameters()).device
        y = self.a(x) + self.b(x)
        for p in self.parameters():
            y = y + p.sum()
        z = sum(p.sum() for p in self.a.parameters())
        return y, z, names, bufs, mods, ch, nch, nm, np_, nb, nr, dt, dev


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.register_buffer("scale", torch.ones(4))

    def forward(self, x):
        return self.fc(x) * self.scale
