import torch
import torch.nn.functional as F


class M(torch.nn.Module):
    def forward(self, x):
        abcdefgh = x + 1
        abcdefghi = abcdefgh * 2
        abcdefg = abcdefghi - abcdefgh
        a = abcdefg + abcdefgh
        abcdefgh_ = a + 1
        _abcdefg = abcdefgh_ + abcdefgh
        xxxxxxxxx = _abcdefg
        xxxxxxxx = xxxxxxxxx + 1
        return xxxxxxxx + abcdefghi
