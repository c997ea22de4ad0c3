import torch
import torch.nn as nn


def has(obj, name):
    return hasattr(obj, name)


class M(nn.Module):
    def forward(self, x):
        # A packet's overloads(), in the dispatcher's order (each torch's own).
        relu = torch.ops.aten.relu.overloads()
        add = torch.ops.aten.add.overloads()
        n = len(relu) + has(torch.ops.aten.relu, "overloads")
        n = n * 10 + ("default" in relu) + len(torch.ops.aten.sum.overloads())
        # A packet's attributes are its overloads, of each torch's table.
        found = (has(torch.ops.aten.add, "Tensor"), has(torch.ops.aten.add, "nope"),
                 has(torch.ops.aten.add, "name"), has(torch.ops.aten.relu, "default"),
                 has(torch.ops.aten, "relu"), has(torch.ops.aten, "made_up"),
                 has(torch.ops.aten.prelu, "out"), has(torch.ops.aten, "_symeig_helper"))
        p = torch.ops.aten.add
        o = torch.ops.aten.add.Tensor
        texts = (str(p), repr(p), str(o), repr(o), str(torch.ops.aten.relu.default),
                 repr(torch.ops.aten.relu.default), str(o.overloadpacket),
                 repr(torch.ops.aten.relu.default.overloadpacket))
        schema = (str(o._schema), o._schema.name, o._schema.overload_name,
                  torch.ops.aten.relu.default._schema.overload_name,
                  str(torch.ops.aten.sum.dim_IntList._schema))
        tags = (str(o.tags), len(torch.ops.aten.relu.default.tags), str(torch.ops.aten.view.default.tags),
                [str(t) for t in torch.ops.aten.add_.Tensor.tags])
        return x + n, relu, add, found, texts, schema, tags
