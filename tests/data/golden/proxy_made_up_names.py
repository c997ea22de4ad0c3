import torch
import torch.nn as nn


class ProxyMadeUpNames(nn.Module):
    # Any name on a traced value is recorded, whatever torch.Tensor has
    # (torch.fx's Proxy takes every attribute): a made-up method, a made-up
    # attribute, a method of torch 2.x only (recorded by torch 1.13.1 too),
    # on an input and on a parameter.  Constant tensors are checked against
    # the table of the dialect; traced values never.
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.ones(3))

    def forward(self, x):
        a = x.made_up_method(1, k=2)
        b = a.made_up_attribute
        c = x.nonzero_static(size=2)
        d = self.w.made_up()
        return b, c, d
