import torch
import torch.nn as nn
import operator as op


class M(nn.Module):
    """str(e) and e.args of a module's AttributeError: Python's text."""

    def forward(self, x):
        n = 0
        try:
            q = op.nope
        except AttributeError as e:
            n = n + len(str(e))
        try:
            q = torch.nn.utils.prune
        except AttributeError as e:
            n = n * 100 + len(e.args[0])
        try:
            q = torch.nn.functional.relux
        except AttributeError as e:
            n = n * 100 + len(str(e))
        return x + n
