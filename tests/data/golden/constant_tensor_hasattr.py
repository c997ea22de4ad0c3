import torch
import torch.nn as nn


class ConstantTensorHasattr(nn.Module):
    # hasattr() and getattr() with a default on a constant tensor ask the
    # names of torch.Tensor of the dialect: a data attribute is there (Graft
    # does not model its value, but hasattr() is true), a made-up name is
    # not, nonzero_static only in torch 2.x.
    def forward(self, x):
        t = torch.ones(2)
        a = hasattr(t, "requires_grad")
        b = hasattr(t, "made_up")
        c = getattr(t, "made_up", 3)
        d = hasattr(t, "nonzero_static")
        e = hasattr(nn.Parameter(torch.ones(2)), "is_ort")
        f = getattr(t, "relu")()
        return x + f, a, b, c, d, e
