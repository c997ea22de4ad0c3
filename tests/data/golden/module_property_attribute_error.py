import torch
import torch.nn as nn


class M(nn.Module):
    """A property whose getter raises AttributeError: Python then calls
    nn.Module.__getattr__ with the property's name, which finds a
    parameter, buffer or submodule of that name, else raises its own
    AttributeError naming the property."""

    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.register_buffer("shift", torch.ones(4))

    @property
    def scale(self):
        return self.missing_scale

    @property
    def shift(self):
        return self.no_shift

    @property
    def fine(self):
        return 3

    def forward(self, x):
        try:
            y = self.scale
        except AttributeError as e:
            y = len(e.args[0])
        if hasattr(self, "scale"):
            y = y + 100
        x = self.lin(x) * y
        x = x + self.shift
        return x + self.fine + getattr(self, "scale", 7)
