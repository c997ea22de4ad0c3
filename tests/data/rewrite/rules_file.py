# graft-args: --pattern rules_file_rules.py
import torch


class M(torch.nn.Module):
    def forward(self, x):
        a = torch.sigmoid(x) * x
        b = torch.sigmoid(a) * a
        return torch.sigmoid(b) * x
