# graft-args: --dce
# call_module nodes: a module is impure only when it has `_is_impure`, which no torch.nn
# leaf has, so unused calls go (Linear, Dropout, an in-place ReLU, BatchNorm in training
# mode); a used one stays.
import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(4, 4)
        self.drop = torch.nn.Dropout(0.5)
        self.act = torch.nn.ReLU(inplace=True)
        self.bn = torch.nn.BatchNorm1d(4)
        self.out = torch.nn.Linear(4, 2)

    def forward(self, x):
        self.lin(x)
        self.drop(x)
        self.act(x)
        self.bn(x)
        return self.out(torch.sigmoid(x))


def pattern(p):
    return torch.sigmoid(p)


def replacement(p):
    return torch.special.expit(p)
