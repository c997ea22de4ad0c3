import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        l = [1]
        l.append(l)
        d = {'a': 1}
        d['self'] = d
        d['list'] = l
        t = (l, 2)
        outer = []
        outer.append([outer, (outer,)])
        out = [str(l), repr(l), f'{l}', f'{l!r}', str(d), str(t), str([l, l]), str(outer),
               repr(outer[0]), str(len(l)), str(l[1][1][0])]
        return x, out
