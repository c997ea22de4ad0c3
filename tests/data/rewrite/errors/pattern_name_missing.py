# graft-args: --pattern nope
import torch


class M(torch.nn.Module):
    def forward(self, x):
        return x.relu()


def replacement(a):
    return a.neg()
