import torch
import torch.nn as nn


# torch.cat() takes a tuple or a list of tensors, not an iterator.
class M(nn.Module):
    def forward(self, x):
        return torch.cat(reversed([x, x + 1]))
