import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.d = {"a": 1}

    def forward(self, x):
        for k in self.d.items():
            self.d["b"] = 2
        return x
