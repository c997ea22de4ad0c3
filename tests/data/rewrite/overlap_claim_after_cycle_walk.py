# Three candidate matches, in order: at `sigmoid` (relu_1 is its `a`), at
# `sigmoid_1` (relu), at `sigmoid_2` (relu_1 again).  The first is kept and claims
# relu_1 and sigmoid; the second is kept too, and its cycle check walks from relu's
# outside user relu_1 through the first match; the third holds relu_1, so it
# overlaps the first and is dropped: 2 matches.  (Graft used to lose the claims
# where that walk passed and kept the third, then failed to replace it.)
import torch


class M(torch.nn.Module):
    def forward(self, x):
        r = x.relu()
        c = r.relu()
        s = c.sigmoid()
        t = r.sigmoid()
        u = c.sigmoid()
        return s, t, u


def pattern(x):
    a = x.relu()
    return a, a.sigmoid()


def replacement(x):
    a = x.neg()
    return a, a.tanh()
