import torch
import torch.nn as nn


class LiteralStrings(nn.Module):
    def forward(self, x):
        a = x.foo("plain")
        b = x.foo("it's")
        c = x.foo('say "hi"')
        d = x.foo("both ' and \"")
        e = x.foo("tab\tnew\nline\\back")
        f = x.foo("caf\u00e9 \u2603 \U0001F600")
        g = x.foo("")
        h = x.foo("\x01\x7f")
        return a, b, c, d, e, f, g, h
