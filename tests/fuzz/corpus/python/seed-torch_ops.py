import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x, y):
        a = torch.ops.aten.relu(x)
        b = torch.ops.aten.add.Tensor(a, y, alpha=2)
        c = torch.ops.aten.mul.Scalar(b, 3)
        d = torch.ops.aten.sum.dim_IntList(c, [1], True)
        e = torch.ops.aten.cat.default([a, b], 1)
        f = torch.ops.aten.view.default(e, [-1])
        g = torch.ops.aten.transpose.int(x, 0, 1)
        h = torch.ops.aten.mean(x, dim=[0])
        return d, f, g, h, torch.ops.aten.clamp.default(x, min=0.0)
