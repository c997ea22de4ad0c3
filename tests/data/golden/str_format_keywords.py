import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.name = "{kind}:{width}x{depth}".format(depth=2, kind="mlp", width=8)

    def forward(self, x):
        # each field is looked up by its own name, whatever came before
        tag = "{b}{a}-{a}{b}".format(a=1, b=2)
        label = "{head}/{0}/{tail}".format("mid", tail="t", head="h")
        return x, self.name, tag, label, "{x}{y}{x}".format(x="p", y="q")
