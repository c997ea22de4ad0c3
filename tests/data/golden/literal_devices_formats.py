import torch
import torch.nn as nn


class LiteralDevicesFormats(nn.Module):
    def forward(self, x):
        a = x.to("cpu")
        b = x.to(torch.device("cpu"))
        c = x.to(torch.device("cuda", 0))
        d = x.contiguous(memory_format=torch.contiguous_format)
        e = x.to(memory_format=torch.channels_last)
        f = x.foo(torch.strided, torch.sparse_coo)
        g = x.clone(memory_format=torch.preserve_format)
        return a, b, c, d, e, f, g
