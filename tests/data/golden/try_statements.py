import torch
import torch.nn as nn
import torch.fx


class M(nn.Module):
    def forward(self, x):
        try:
            y = x + 1
        except Exception:
            y = x - 1
        else:
            y = y * 2
        finally:
            y = y + 3
        try:
            if x.sum() > 0:
                y = y + 1
        except torch.fx.proxy.TraceError:
            y = y - 1
        try:
            for v in y:
                y = y + v
        except (KeyError, ValueError):
            y = y * 3
        try:
            n = len(x)
        except RuntimeError:
            n = 2
        try:
            raise KeyError("k")
        except LookupError:
            y = y / n
        try:
            z = y.relu()
            return z + 1
        finally:
            w = y * 2
