import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        msgs = []
        for f in (lambda: [].index(x), lambda: ().index(x), lambda: [1, 2].index(5),
                  lambda: ['a'].index('b'), lambda: (1, 2).index(3), lambda: [x].index(x),
                  lambda: [1, 'a', None].count('a')):
            try:
                msgs.append(f())
            except ValueError as e:
                msgs.append(str(e))
            except Exception as e:
                msgs.append(type(e).__name__)
        return x, msgs
