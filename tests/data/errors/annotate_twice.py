import torch
from torch.fx.annotate import annotate


class M(torch.nn.Module):
    def forward(self, x: torch.Tensor):
        y = annotate(x, int)
        return y.relu()
