import torch
import torch.nn as nn


def swallow(x):
    # A return in finally discards the exception on its way out.
    try:
        return {}["k"]
    finally:
        return x * 5


class M(nn.Module):
    def forward(self, x):
        y = x
        try:
            try:
                z = [1][2]
            finally:
                # Runs before the outer handler: its node is recorded.
                y = x + 1
        except IndexError:
            y = y - 2
        try:
            try:
                z = [1][2]
            finally:
                # Its own exception replaces the IndexError.
                w = {}["missing"]
        except KeyError as e:
            y = y * 3
            if e.args == ("missing",):
                y = y + 4
        return swallow(y)
