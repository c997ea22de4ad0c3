import torch
import torch.nn as nn


def message(f, *args, **kwargs):
    # What torch's schema matching says of a call with constants.
    try:
        f(*args, **kwargs)
        return "ran"
    except RuntimeError as e:
        return str(e).split("\n")[0]


class M(nn.Module):
    def forward(self, x):
        t = torch.ones(2)
        # add, sub, mul, div... take a Python number for a Tensor parameter.
        said = (message(torch.ops.aten.add.Tensor, t, 1),
                message(torch.ops.aten.add.Tensor, 1, 2.5),
                message(torch.ops.aten.mul.Tensor, True, t),
                message(torch.ops.aten.sub.Tensor, t, other=2),
                message(torch.ops.aten.div, 1, t),
                message(torch.ops.aten.true_divide.Tensor, t, 3),
                message(torch.ops.aten.floor_divide.default, t, 3),
                message(torch.ops.aten.add.Tensor, t, "a"),
                message(torch.ops.aten.add.Tensor, t, [1]),
                message(torch.ops.aten.where.self, t > 0, 1, t),
                message(torch.ops.aten.relu.default, True))
        y = torch.ops.aten.add.Tensor(x, 1) + torch.ops.aten.mul.Tensor(2, x)
        return y, said
