import torch
import torch.nn as nn


class Box:
    def __init__(self):
        self.a = 1


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.sub = nn.Sequential()
        self.sub.lin = nn.Linear(4, 4)
        self.scale = self._scale()
        try:
            self.shift = Box().b
        except AttributeError as e:
            self.shift = len(e.args)

    def _scale(self):
        try:
            return self.missing_scale
        except AttributeError:
            return 2

    def forward(self, x):
        try:
            y = self.missing
        except AttributeError as e:
            y = x
            if str(e) == "'M' object has no attribute 'missing'":
                y = y * 3
        try:
            z = self.sub.nope(x)
        except Exception as e:
            z = x - 1
            if e.args == ("'Sequential' object has no attribute 'nope'",):
                z = z - 2
        w = getattr(self, "absent", None)
        if w is None:
            y = y + self.scale
        if hasattr(self, "missing"):
            y = y + 100
        if hasattr(self.sub, "lin") and not hasattr(self.sub, "lin2"):
            y = y + self.shift
        return self.sub(y) + z
