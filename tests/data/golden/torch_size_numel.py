import torch
import torch.nn as nn


# torch.Size has numel(), the one method a tuple lacks: of a buffer's size
# it is a constant (a traced tensor's size() is a node, and so is its
# numel()).  Its errors and a missing attribute name torch.Size.
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("grid", torch.zeros(2, 3, 4))

    def forward(self, x):
        s = self.grid.size()
        out = [s.numel(), self.grid.shape.numel(), torch.Size([]).numel(),
               torch.Size([2**40, 2**40]).numel(), (s + (5,)).numel(), s[1:].numel()]
        for f in (lambda: s.numel(1), lambda: s.numel(a=1), lambda: s.foo):
            try:
                f()
            except (TypeError, AttributeError) as e:
                out.append(str(e))
        return x * out[0] + x.size().numel(), out
