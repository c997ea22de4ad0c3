import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        msgs = []
        for v in (1, 1.5, True, 'a', None, [1], (1,), {'a': 1}):
            try:
                v.foo
            except AttributeError as e:
                msgs.append(str(e))
        msgs.append(hasattr(1, 'foo'))
        msgs.append(hasattr('a', 'upper'))
        msgs.append(getattr(None, 'bar', 3))
        return x, msgs
