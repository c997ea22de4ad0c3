# As overlap_claim_after_cycle_walk, with the walk from the second match reaching
# the first one's relu_1 through a diamond of outside nodes (neg, exp, add): the
# third match still overlaps the first and is dropped.
import torch


class M(torch.nn.Module):
    def forward(self, x):
        r = x.relu()
        m = r.neg()
        n = r.exp()
        q = m + n
        c = q.relu()
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
