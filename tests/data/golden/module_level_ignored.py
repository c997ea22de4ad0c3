"""A tutorial-style file: the statements around the model are not traced."""
import torch
import torch.nn as nn
from torch.fx import symbolic_trace

print("loading the model file")


class Model(nn.Module):
    """The model."""

    def forward(self, x):
        """Add one."""
        return x + 1


traced = symbolic_trace(Model())
print(traced.code)
print(traced.graph)

if __name__ == "__main__":
    Model()(torch.ones(2))
