import torch
import torch.nn as nn


# A keyword whose name holds a NUL byte: torch.fx writes the name raw in
# its code, which does not compile.
class NulKeywordName(nn.Module):
    def forward(self, x):
        return x.foo(**{"a\x00b": 1})
