#!/usr/bin/python3
"""gen-listing-data.py: write tests/data/listing/CASE.txt and CASE.code from each torch.

Run with the Python of each torch Graft speaks:

    /usr/bin/python3 tests/tools/gen-listing-data.py [OUTDIR]                   # torch 1.13.1
    ../shared/tools/torch26 python3 tests/tools/gen-listing-data.py [OUTDIR]    # torch 2.6

torch 1.13.1 writes CASE.txt and CASE.code, torch 2.6 CASE.torch26.txt and CASE.torch26.code
(its listings say `[num_users=N]`, 1.13.1's `[#users=N]`).

Each case below is a small module traced with torch.fx.symbolic_trace.
CASE.txt is `print(gm.graph)` (the listing test reads it back and prints it
again, byte for byte) and CASE.code is `gm.code` stripped (what graft's code
generator must write for the graph read from CASE.txt).  Only this script
needs torch; the test suite reads the files.
"""
import math
import os
import sys
import types

import torch
import torch.fx
import torch.nn as nn
import torch.nn.functional as F

CASES = {}


def case(name):
    def register(cls):
        CASES[name] = cls
        return cls
    return register


@case('ops')
class Ops(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.seq = nn.Sequential(nn.ReLU(), nn.Linear(4, 2))
        self.p = nn.Parameter(torch.ones(4))
        self.register_buffer('buf', torch.zeros(4))

    def forward(self, x, y):
        a = x + y
        b = 2 - a
        c = -b * x / 3 // y % 2 ** a
        d = (c @ x) << 1 >> 2 & 3 | 4 ^ 5
        e = (x == y) != (x < 1)
        f = ~(x > y) & (x <= 2) & (x >= y)
        g = +a
        h = self.lin(g + self.p + self.buf)
        i = self.seq(h)
        j = h.sum(dim=1, keepdim=True)
        k = torch.cat([i, j], dim=-1)
        m = F.relu(k)
        n = torch.relu(x).view(-1, 2).transpose(0, 1).contiguous()
        return (a, d, e, f, m, n)


@case('defaults')
class Defaults(nn.Module):
    def forward(self, x: torch.Tensor, y=None, s='a', t=(1, -2), u=torch.float32,
                v=2.5, w=True, z="it's"):
        return x.to(u) * v


@case('slices')
class Slices(nn.Module):
    def forward(self, x, y):
        a = x[1:3]
        b = x[:, 0]
        c = x[..., None]
        d = x[y]
        e = x[::2, 1:-1:2]
        n = x.size(0)
        f = x[n - 1:]
        g = x[:n, ..., -1]
        return a, b, c, d, e, f, g


@case('returns_dict')
class ReturnsDict(nn.Module):
    def forward(self, x, y):
        a = torch.cat((x, y), 0)
        b = torch.stack([x, [y, x][0]])
        return {'d': a, 'rest': [b, (x, 1)], "it's": None}


@case('floats')
class Floats(nn.Module):
    def forward(self, x):
        a = x * 1e-05 + 1e20 - 0.1
        b = a.clamp(min=-math.inf, max=math.inf)
        c = b + float('nan') + 1 / 3 + math.pi + 4.0 + 1e16 + 123456789.0
        d = c * 1j - (1 + 2j)
        e = d.masked_fill(x > 0, -1e-300)
        return e


@case('symbols_strings')
class SymbolsStrings(nn.Module):
    def forward(self, x):
        a = x.to(torch.float16).to('cpu')
        b = torch.functional.einsum('ij->ji', a)
        c = getattr(b, 'foo bar')
        d = x.to(memory_format=torch.contiguous_format)
        e = torch.ones(3, dtype=torch.int64, layout=torch.strided) if False else d
        f = e.new_zeros((2, 2), dtype=torch.bool)
        g = F.softmax(f, dim=1)
        h = F.layer_norm(g, (4,))
        return (c, h, Ellipsis, None, 'lit', True)


@case('names')
class Names(nn.Module):
    def __init__(self):
        super().__init__()
        self.myLayer = nn.ReLU()
        self.layers = nn.ModuleList([nn.ReLU(), nn.Tanh()])
        self.HTTPThing = nn.Identity()

    def forward(self, input, inputIds):
        a = self.myLayer(input)
        b = self.layers[0](a)
        c = self.layers[1](b)
        d = self.HTTPThing(c).sum() + inputIds.sum()
        e = d.max().type(torch.float32).float()
        f = torch.max(e, d) + torch.sum(e) + e.pow(2).round()
        g = d + d + d + d
        h = self.myLayer(g)
        unused = self.myLayer(x=h)
        return h


@case('constant')
class Constant(nn.Module):
    def forward(self):
        return 1


@case('passthrough')
class Passthrough(nn.Module):
    def forward(self, x, y):
        return x


@case('dead_code')
class DeadCode(nn.Module):
    def __init__(self):
        super().__init__()
        self.p = nn.Parameter(torch.ones(2))

    def forward(self, x):
        p = self.p
        x.relu()
        return x.neg()


WRAPPED_SOURCE = '''
import math
import torch
import torch.fx
import torch.nn as nn

def helper(t, opts):
    return t

torch.fx.wrap('helper')

class Wrapped(nn.Module):
    def forward(self, x):
        n = math.sqrt(x.size(0))
        a = helper(x, {'a': x, 'b': [1, (2, n)], 'c': {'d': slice(1, n, None)}})
        b = helper(a, [[[]], (), {}])
        return math.floor(n) + b
'''


def wrapped_case():
    module = types.ModuleType('wrapf')
    sys.modules['wrapf'] = module
    exec(compile(WRAPPED_SOURCE, 'wrapf.py', 'exec'), module.__dict__)
    return module.Wrapped


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), '..', 'data', 'listing')
    os.makedirs(outdir, exist_ok=True)
    CASES['wrapped'] = wrapped_case()
    tag = '' if torch.__version__.startswith('1.') else '.torch26'
    for name, cls in sorted(CASES.items()):
        gm = torch.fx.symbolic_trace(cls())
        with open(os.path.join(outdir, name + tag + '.txt'), 'w') as f:
            f.write(str(gm.graph) + '\n')
        with open(os.path.join(outdir, name + tag + '.code'), 'w') as f:
            f.write(gm.code.strip() + '\n')


if __name__ == '__main__':
    main()
