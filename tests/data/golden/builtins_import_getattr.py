from builtins import getattr
import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = torch.nn.Sequential(torch.nn.ReLU(), torch.nn.Linear(4, 4))

    def forward(self, x):
        y = getattr(self.layers, "0")(x)
        return getattr(self.layers, "1")(y)
