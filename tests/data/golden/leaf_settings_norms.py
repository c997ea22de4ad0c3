import collections

import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm2d(4, affine=False)
        self.inorm = nn.InstanceNorm2d(4, affine=True)
        self.gn = nn.GroupNorm(2, 4)
        self.fc = nn.Linear(4, 4, bias=False)
        self.gru = nn.GRU(4, 8, num_layers=2, bidirectional=True)
        self.pd = nn.ParameterDict(collections.OrderedDict([("z", nn.Parameter(torch.ones(4))), ("a", nn.Parameter(torch.ones(4)))]))

    def forward(self, x):
        names = [n for n, _ in self.named_parameters()]
        bufs = [n for n, _ in self.named_buffers()]
        y = x * self.bn.running_var + self.gn.weight
        return (y, names, bufs, self.bn.weight, self.inorm.running_mean, self.fc.bias,
                self.gru.hidden_size, self.gru.num_layers, self.bn.track_running_stats)
