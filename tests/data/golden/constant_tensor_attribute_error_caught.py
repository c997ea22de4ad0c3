import torch
import torch.nn as nn


class ConstantTensorAttributeErrorCaught(nn.Module):
    # A name torch.Tensor lacks, read on a constant tensor, is torch's
    # AttributeError, which a handler catches: by attribute, by getattr()
    # without a default, on a Parameter, and in __init__.
    def __init__(self):
        super().__init__()
        self.c = torch.ones(2)
        try:
            self.c.made_up
            self.k = 1
        except AttributeError:
            self.k = 2

    def forward(self, x):
        t = torch.ones(2)
        try:
            a = t.made_up
        except AttributeError:
            a = 3
        try:
            b = getattr(t, "made_up")
        except AttributeError as e:
            b = isinstance(e, AttributeError) + 4
        try:
            c = nn.Parameter(torch.ones(2)).made_up()
        except Exception:
            c = 5
        return x + a + b + c + self.k
