# setattr() of names with NUL bytes: plain values kept apart from "a" and "a\xffb",
# read back by getattr() (and hasattr(), a default for an absent one).
import torch
import torch.nn as nn


class M(nn.Module):
    def forward(self, x):
        setattr(self, "a\x00b", 2)
        setattr(self, "a\xffb", 3)
        setattr(self, "a", 5)
        setattr(self, "c\x00", x + 1)
        y = x + getattr(self, "a\x00b") + getattr(self, "a\xffb") + self.a
        z = getattr(self, "q\x00", 7)
        return y * getattr(self, "c\x00") + z + (1 if hasattr(self, "a\x00b") else 0) + (10 if hasattr(self, "a\x00c") else 0)
