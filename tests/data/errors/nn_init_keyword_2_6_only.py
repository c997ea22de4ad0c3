import torch.nn as nn


class Norm(nn.Module):
    def __init__(self):
        super().__init__()
        # LayerNorm's bias= is new in torch 2.1
        self.norm = nn.LayerNorm(8, bias=False)

    def forward(self, x):
        return self.norm(x)
