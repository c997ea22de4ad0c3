import math
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        msgs = []
        for f in (lambda: 1 + 'a', lambda: 'a' + 1, lambda: [1] + (1,), lambda: 'a' * 'b',
                  lambda: 1.5 * [1], lambda: None + 1, lambda: 'a' ** 2, lambda: 1 @ 2,
                  lambda: 1.5 << 1, lambda: {} | 1, lambda: divmod('a', 1),
                  lambda: int(' x '), lambda: float('y'), lambda: math.sqrt(-1),
                  lambda: math.log(0)):
            try:
                f()
            except (TypeError, ValueError) as e:
                msgs.append(type(e).__name__ + ': ' + str(e) + ' ' + repr(e.args))
        s = 'a'
        try:
            s += 1
        except TypeError as e:
            msgs.append(str(e))
        n = None
        try:
            n -= 1
        except TypeError as e:
            msgs.append(str(e))
        l = [1]
        l += (2,)
        msgs.append(str(l))
        return x, msgs
