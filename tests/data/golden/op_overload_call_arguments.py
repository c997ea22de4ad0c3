import torch
import torch.nn as nn


def message(f, *args, **kwargs):
    # What torch's schema matching says of a call with constants.
    try:
        f(*args, **kwargs)
        return "ran"
    except RuntimeError as e:
        return str(e)


class M(nn.Module):
    def forward(self, x):
        t = torch.ones(2)
        add = torch.ops.aten.add.Tensor
        said = (message(torch.ops.aten.relu.default, 3),
                message(torch.ops.aten.relu.default, "s"),
                message(torch.ops.aten.relu.default, [1, 2]),
                message(add, t, 1, 2),
                message(add, t),
                message(add, t, t, bad=1),
                message(add, t, (1, 2)),
                message(torch.ops.aten.relu.default, t, inplace=True),
                message(torch.ops.aten.relu.default),
                message(add, t, other=t, alpha=2),
                message(torch.ops.aten.sum.dim_IntList, t, [0]),
                message(torch.ops.aten.relu, 3),
                message(torch.ops.aten.add, t, 1, 2, 3))
        # A traced argument is recorded, never checked, as torch.fx records it.
        y = add(x, 1, 2) + torch.ops.aten.relu.default(x, inplace=True)
        return y, said
