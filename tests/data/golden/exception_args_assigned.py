import torch
import torch.nn as nn


# `e.args = ...` in a handler: str(e), repr(e) and a bare `raise` read the
# new args (Graft printed the old message).
class M(nn.Module):
    def forward(self, x):
        out = []
        try:
            raise ValueError('first')
        except ValueError as e:
            e.args = ('second', 2)
            out.append(str(e))
            out.append(e.args)
        try:
            try:
                raise KeyError('first')
            except KeyError as e:
                e.args = ['k']
                raise
        except LookupError as e:
            out.append(str(e))
            out.append(repr(e))
            out.append(e.args)
        return x, out
