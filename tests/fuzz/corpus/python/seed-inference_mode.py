import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    @torch.inference_mode()
    def embed(self, x):
        return self.lin(x)

    def forward(self, x):
        return self.embed(x).softmax(-1)
