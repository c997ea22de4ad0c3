import math
from math import pi, sqrt

import torch
import torch.nn as nn


class MathModuleNames(nn.Module):
    # Python's math names still work by every route; hasattr() asks the
    # math of the dialect's Python: fma is new in Python 3.13 (torch 2.6's
    # oracle), foo is in none.
    def forward(self, x):
        y = x * math.sqrt(2.0) + sqrt(pi) + math.e + math.floor(math.tau)
        return y, hasattr(math, "fma"), hasattr(math, "foo")
