from builtins import getattr
import torch


def forward(self, x):
    layers_0 = getattr(self.layers, "0")(x);  x = None
    layers_1 = getattr(self.layers, "1")(layers_0);  layers_0 = None
    return layers_1
