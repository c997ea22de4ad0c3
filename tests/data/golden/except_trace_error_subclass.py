import torch
import torch.nn as nn
import torch.fx


class MyTrace(torch.fx.proxy.TraceError):
    pass


class M(nn.Module):
    def forward(self, x):
        n = 0
        try:
            raise MyTrace("t")
        except ValueError as e:
            n = n + 1 + isinstance(e, torch.fx.proxy.TraceError) + isinstance(e, MyTrace)
        try:
            raise MyTrace("t")
        except MyTrace as e:
            n = n * 3 + len(str(e))
        return x + n
