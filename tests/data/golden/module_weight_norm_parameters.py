import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        lin = nn.Linear(4, 4)
        b = lin.bias
        self.l = nn.utils.weight_norm(lin)
        self.c = nn.utils.spectral_norm(nn.Conv1d(4, 4, 1))
        # weight left _parameters for weight_g and weight_v (weight_orig
        # and the buffers weight_u, weight_v), appended in that order
        self.names = ([n for n, _ in self.l.named_parameters()],
                      [n for n, _ in self.named_parameters()],
                      [n for n, _ in self.c.named_buffers()], len(list(self.parameters())),
                      hasattr(self.l, 'weight'), isinstance(self.l.weight, nn.Parameter),
                      b is self.l.bias)

    def forward(self, x):
        return self.l(x) + self.l.weight_g.sum(), self.names
