import torch
import torch.nn as nn


# The listings that take no argument raise Python's TypeError when given
# one (Graft dropped it: `self.heads.items(-1)` looped as items()), and
# items(), keys() and values() are ModuleDict's and ParameterDict's alone.
class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.d = nn.ModuleDict({"a": nn.ReLU()})
        self.p = nn.ParameterDict({"w": nn.Parameter(torch.ones(2))})
        self.s = nn.Sequential(nn.ReLU())

    def forward(self, x):
        out = []
        for f in (lambda: self.d.items(1), lambda: self.d.keys(1), lambda: self.d.values(k=1),
                  lambda: self.p.items(1, 2), lambda: self.d.children(2),
                  lambda: self.s.named_children(2), lambda: self.s.items(),
                  lambda: self.s.keys(), lambda: self.s.values()):
            try:
                f()
                out.append("ok")
            except (TypeError, AttributeError) as e:
                out.append(type(e).__name__ + ": " + str(e))
        for k, m in self.d.items():
            x = m(x)
        return x, out, list(self.p.keys())
