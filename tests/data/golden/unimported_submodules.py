import torch
import torch.nn as nn
import torch.fx

# Submodules torch does not import are attributes of their package only
# once the program imports them (here at the top, and in forward).
before = [hasattr(torch.fx, "annotate"), hasattr(nn.utils, "prune"), hasattr(torch.fx, "tensor_type")]
from torch.fx.annotate import annotate
import torch.nn.utils.prune
from torch.fx import tensor_type
after = [hasattr(torch.fx, "annotate"), hasattr(nn.utils, "prune"), hasattr(torch.fx, "tensor_type")]


class M(nn.Module):
    def forward(self, x):
        r = [x + 1 if v else x - 1 for v in before + after]
        h = hasattr(torch, "contrib")
        import torch.contrib as contrib
        i = hasattr(torch, "contrib")
        j = hasattr(nn, "backends") + hasattr(torch.fx, "experimental") + hasattr(torch.fx, "passes")
        # torch 2.6's, found by gen-torch-names.py (not in the hand-written list before)
        k = hasattr(torch, "_numpy") * 4 + hasattr(torch, "_environment") * 8
        return r, x * h + i + j + k
