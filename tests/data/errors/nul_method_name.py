import torch
import torch.nn as nn


# A method whose name holds a NUL byte: torch.fx writes the name raw in
# its code, which does not compile.
class NulMethodName(nn.Module):
    def forward(self, x):
        return getattr(x, "a\x00b")(1)
