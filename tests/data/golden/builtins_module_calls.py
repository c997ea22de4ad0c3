import builtins
import torch


def forward(self, x):
    layers_0 = builtins.getattr(self.layers, "0")(x)
    n = builtins.len([1, 2, 3])
    return layers_0 * builtins.int(n)
