import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        b, c = x.shape
        n = x.shape.numel()
        k = x.size().count(4)
        last = x.size()[-1]
        head = x.shape[:-1]
        full = x.shape[::-1]
        w = self.fc.weight.shape
        y = x.view(head + (last,))
        z = x.reshape(x.size(0), -1).expand(x.shape)
        t = x.shape + (1,)
        return y * n + k, z, x.new_zeros(full), w[0] * b + c, t, x.view(b * c), x.shape.index(4)
