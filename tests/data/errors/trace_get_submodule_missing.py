import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.seq = nn.Sequential(nn.ReLU())

    def forward(self, x):
        return self.get_submodule("seq.1")(x)
