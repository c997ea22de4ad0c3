# A model and its rules in one file: the fuzz-rules seed that reaches runs
# on the input's own model.
import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.bn = torch.nn.BatchNorm2d(4)
        self.relu = torch.nn.ReLU()

    def forward(self, x, y):
        a = torch.relu(torch.relu(x + y))
        b = self.relu(self.bn(a))
        c, d = torch.chunk(b, 2)
        return torch.max(torch.stack([c, d])), torch.neg(x)


class BnRelu(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.bn = torch.nn.BatchNorm2d(4)
        self.relu = torch.nn.ReLU()

    def forward(self, x):
        return self.relu(self.bn(x))


class BnFunctionalRelu(BnRelu):
    def forward(self, x):
        return torch.nn.functional.relu(self.bn(x))


def relu_relu(x):
    return torch.relu(torch.relu(x))


def relu_once(x):
    return torch.relu(x)


def max_stack(a, b):
    return torch.max(torch.stack([a, b]))


def maximum_of_max(a, b):
    return torch.maximum(torch.max(a), torch.max(b))


RULES = [(relu_relu, relu_once), (BnRelu, BnFunctionalRelu), (max_stack, maximum_of_max)]
