# Two anchors (relu, then sigmoid; matches in the order of relu's candidates): the
# match (relu_1, sigmoid) is kept after (relu, sigmoid_1), and its cycle walk
# passes sigmoid_1, which lies after its own last node; (relu_2, sigmoid_1) then
# overlaps the first match and is dropped.
import torch


class M(torch.nn.Module):
    def forward(self, x):
        sb = x.sigmoid()
        ra = sb.relu()
        rb = x.relu()
        sa = sb.sigmoid()
        rd = sb.relu()
        return ra, rb, sa, rd


def pattern(p):
    return p.relu(), p.sigmoid()


def replacement(p):
    return p.neg(), p.tanh()
