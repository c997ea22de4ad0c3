import torch
import torch.nn as nn


# `in` on module containers: a ModuleDict looks the key up in its modules
# (a key of another type is simply absent); a ModuleList or Sequential
# iterates its modules, each compared by identity.
class ContainersInCase(nn.Module):
    def __init__(self):
        super().__init__()
        self.d = nn.ModuleDict({"a": nn.ReLU(), "b": nn.Tanh()})
        self.layers = nn.ModuleList([nn.ReLU(), nn.Tanh()])
        self.seq = nn.Sequential(nn.Sigmoid())
        self.other = nn.ReLU()

    def forward(self, x):
        if "a" in self.d and "z" not in self.d and 1 not in self.d:
            x = self.d["a"](x)
        if self.other in self.layers or self.layers[1] not in self.seq or 3 in self.seq:
            x = x + 1
        if self.layers[0] in self.layers and self.seq[0] in self.seq:
            x = x * 2
        return x
