import torch
from torch.fx.annotate import annotate
from typing import List


class M(torch.nn.Module):
    def forward(self, x):
        r = x.relu()
        r = annotate(r, torch.Tensor)
        s = annotate(x.size(0), int)
        return annotate(r + s, List[int])
