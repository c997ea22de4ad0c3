import torch
import torch.nn as nn

MESSAGE = 'from the module'


class M(nn.Module):
    def forward(self, x):
        msgs = []
        n = x.size(0)
        s = 'b'
        for f in (lambda: 1 / 0, lambda: 1 // 0, lambda: 1 % 0, lambda: 1.0 / 0, lambda: 1.5 % 0.0,
                  lambda: 1.5 // 0.0):
            try:
                f()
            except ZeroDivisionError as e:
                msgs.append(str(e) + ' ' + repr(e.args))
        try:
            raise RuntimeError("a" + s, [1, (2, None)])
        except RuntimeError as e:
            msgs.append(str(e))
            msgs.append(repr(e))
        try:
            raise ValueError(f"bad {n}", n)
        except ValueError as e:
            msgs.append(str(e))
            msgs.append(repr(e))
        try:
            raise KeyError(MESSAGE)
        except LookupError as e:
            msgs.append(str(e))
        try:
            1 / 0
        except ZeroDivisionError as e:
            try:
                raise ValueError(f"bad {e}") from e
            except ValueError as f:
                msgs.append(str(f))
        for cls in (TypeError, FileNotFoundError):
            try:
                raise cls('from a variable')
            except Exception as e:
                msgs.append(repr(e))
        return x, msgs
