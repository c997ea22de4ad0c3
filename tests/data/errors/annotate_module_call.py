import torch
import torch.fx


class M(torch.nn.Module):
    def forward(self, x, y):
        y = torch.fx.annotate(y, float)
        return x + y
