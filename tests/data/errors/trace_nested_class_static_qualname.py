import torch
import torch.nn as nn

class Outer:
    class Inner:
        @staticmethod
        def s(a, b):
            return a

class M(nn.Module):
    def forward(self, x):
        return Outer.Inner.s(x, a=1)
