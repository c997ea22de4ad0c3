# The one model every bad rules file of this folder is run on:
#   rewrite model.py --rules NAME_rules.py
# It has a relu of a sum and a hand-written swish, so that the good rules around a bad one
# match, and so do the bad rules whose fault torch only sees when it applies them.
import torch


class M(torch.nn.Module):
    def forward(self, x, y):
        h = torch.relu(x + y)
        g = h * torch.sigmoid(h)
        return g.sum(1)
