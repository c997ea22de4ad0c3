# graft-args: --pattern rules_file_named_rules.py:hardswish_pattern --replacement hardswish_replacement
import torch
import torch.nn.functional as F


class M(torch.nn.Module):
    def forward(self, x):
        y = x * F.relu6(x + 3) / 6
        z = y * F.relu6(y + 3) / 6
        return z * F.relu6(x + 3) / 6
