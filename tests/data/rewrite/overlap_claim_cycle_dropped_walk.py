# The second candidate, at add_1 (q = neg, a user of its own relu), would make a
# cycle; its walk crosses the first match's relu_1 and add before it finds the
# cycle and drops the match.  The third, at add_2, holds relu_1: it overlaps the
# first and is dropped too.  1 match.
import torch


class M(torch.nn.Module):
    def forward(self, x, y, z):
        r = x.relu()
        o = r.neg()
        c = r.relu()
        s = c + y
        t = r + o
        u = c + z
        return s, t, u


def pattern(p, q):
    r = p.relu()
    return r, r + q


def replacement(p, q):
    r = p.tanh()
    return r, r - q
