import torch
import torch.nn as nn


def attr_or(obj, name, default):
    try:
        return getattr(obj, name)
    except AttributeError as e:
        return default, e.args


class M(nn.Module):
    def forward(self, x):
        relu = torch.ops.aten.relu.default
        add = torch.ops.aten.add.Tensor
        names = (relu.name(), add.name(), relu.__name__, add.__qualname__, add._name,
                 add._overloadname, add.namespace, add.__module__, add.__doc__)
        packet = (torch.ops.aten.add.__name__, torch.ops.aten.add._qualified_op_name)
        # torch 2.6 only: torch 1.13.1's OpOverload raises an AttributeError without text.
        new = (attr_or(add, "is_view", 1), attr_or(torch.ops.aten.transpose.int, "is_view", 2),
               attr_or(add, "_opname", 3), attr_or(add, "_namespace", 4),
               attr_or(add, "_defined_in_python", 5), attr_or(add, "made_up", 6))
        # A schema read and left unused traces on.
        schema = add._schema
        y = add.op(x, x) + relu._op(x) + torch.ops.aten.add.op(x, 1)
        z = add.overloadpacket(y, 2) + add._overloadpacket.Tensor(y, y)
        return z, names, packet, new
