import torch
import torch.nn as nn


class LiteralNested(nn.Module):
    def forward(self, x, y):
        a = x.foo((1, (2, 3)), [4, [5, [6]]])
        b = x.foo({"a": 1, "b": [2, 3], "c": {"d": (4,)}})
        c = x.foo((), [], {})
        d = x.foo([x, (y, 1)], {"k": y, "l": [x]})
        e = x.foo(slice(1, 2), (slice(None), 3))
        f = x.foo((1,), [None, True], {"s": "str"})
        return a, b, c, d, e, f
