import torch
import torch.nn as nn


ACTS = {"relu": lambda x: x.relu(), "tanh": torch.tanh, "id": lambda x: x}


class M(nn.Module):
    def __init__(self, names=("relu", "tanh", "id")):
        super().__init__()
        self.acts = [ACTS[n] for n in names]

    def forward(self, x):
        for f in self.acts:
            x = f(x) + 1
        return x
