import torch
import torch.nn as nn


def late(x):
    try:
        y = x + later
    except UnboundLocalError as e:
        y = x * len(e.args[0])
    later = 1
    return y + later


class M(nn.Module):
    """An undefined name is Python's NameError, which a handler catches
    (UnboundLocalError, a NameError, for a local read before it is bound),
    also through a finally clause."""

    def forward(self, x):
        try:
            try:
                y = x + undefined_name
            finally:
                x = x + 1
        except NameError as e:
            x = x + len(e.args[0])
        try:
            x = x - missing_too
        except Exception:
            x = x * 3
        return late(x)
