import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        # No exception reaches the handler: its name is never looked up.
        try:
            y = x + 1
        except Undefined:
            y = x
        # An exception reaches it: NameError replaces the IndexError.
        try:
            try:
                z = [1][2]
            except (KeyError, Undefined):
                z = x
        except NameError as e:
            z = x * 2
            if e.args == ("name 'Undefined' is not defined",):
                z = z - 3
        # A handler before it catches: the later one is never reached.
        try:
            w = {}["k"]
        except LookupError:
            w = x - 1
        except Undefined:
            w = x
        return y + z + w
