import torch
import torch.nn as nn


# A traced value's Node: its name, op and (but for a function's) target
# are plain strings while tracing.  `x.T.node` makes the getattr node
# right there, as torch.fx's Attribute.node does.
class ProxyNodeName(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        y = x + 1
        z = y * len(y.node.name)
        t = x.T.node.name
        w = z.relu()
        n = w.node
        v = self.lin(w)
        m = v.node
        if y.node.name == "add":
            v = v * 2
        u = getattr(x, y.node.name, 3)
        return (v, u, y.node.name, x.node.name, t, n.op, n.target, y.node.op, "n_" + n.name,
                m.target, m.op, self.lin.weight.node.op)
