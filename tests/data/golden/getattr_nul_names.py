import torch
import torch.nn as nn


# Attribute names with a NUL byte, which getattr() gives a traced value:
# the name keeps its length into the getattr node, so torch.fx writes
# `getattr(x, 'a\x00b')` (not an identifier); string constants keep theirs.
class GetattrNulNames(nn.Module):
    def forward(self, x):
        a = getattr(x, "a\x00b")
        b = getattr(x, "\x00")
        c = getattr(x, "shape\x00x")[0]
        d = getattr(getattr(x, "T"), "node\x00")
        e = getattr(a, "a\x00b").bar + 1
        f = x.foo("a\x00b", k="\x00")
        return (a, b, c, d, e, f, "q\x00r")
