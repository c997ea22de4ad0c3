import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.l = nn.utils.weight_norm(nn.Linear(4, 3))
        nn.utils.remove_weight_norm(self.l)
        self.s = nn.utils.spectral_norm(nn.Linear(3, 3))
        self.s = nn.utils.remove_spectral_norm(self.s)
        self.c = nn.utils.weight_norm(nn.Conv1d(3, 3, 1), name="bias")
        nn.utils.remove_weight_norm(self.c, "bias")

    def forward(self, x):
        names = [n for n, p in self.named_parameters()]
        bufs = [n for n, b in self.named_buffers()]
        x = self.l(x) + self.l.weight.sum()
        return self.s(x), names, bufs, self.c.bias
