# graft-args: --pattern rules_file_cross_rules.py:pattern --replacement rules_file_cross.py:local_replacement
import torch


class M(torch.nn.Module):
    def forward(self, x):
        return torch.sigmoid(x) * x + 1


def local_replacement(x):
    return x.sigmoid().mul(x)
