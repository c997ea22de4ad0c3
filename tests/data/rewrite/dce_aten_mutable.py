# graft-args: --dce
# Calls of aten OpOverloads that nothing uses.  torch 2.6 keeps those whose schema is
# mutable (`add_.Tensor`, `copy_.default`, an `out=` overload, `prims.copy_to.default`
# of another namespace); torch 1.13.1 keeps none.  A packet (`torch.ops.aten.add_`) has no
# schema: it goes in both, as do the overloads that write nothing.
import torch


class M(torch.nn.Module):
    def forward(self, x, y, out):
        torch.ops.aten.add_.Tensor(x, y)
        torch.ops.aten.copy_.default(y, x)
        torch.ops.aten.add.out(x, y, out=out)
        torch.ops.aten.relu_.default(y)
        torch.ops.prims.copy_to.default(out, x)
        torch.ops.aten.add_(x, y)
        torch.ops.aten.add.Tensor(x, y)
        torch.ops.aten.mul.Scalar(x, 2)
        return torch.ops.aten.neg.default(x)


def pattern(p):
    return torch.ops.aten.neg.default(p)


def replacement(p):
    return torch.ops.aten.mul.Scalar(p, -1)
