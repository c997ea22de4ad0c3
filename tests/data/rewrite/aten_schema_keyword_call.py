import torch


class M(torch.nn.Module):
    def forward(self, x):
        a = torch.ops.aten.sum.dim_IntList(x, [0], keepdim=True)
        b = torch.ops.aten.sum.dim_IntList(a, [0], True)
        c = torch.ops.aten.sum.dim_IntList(b, [0])
        return torch.ops.aten.relu.default(c)


def pattern(x):
    return torch.ops.aten.sum.dim_IntList(x, [0], True)


def replacement(x):
    return torch.ops.aten.mean.dim(x, [0], True)
