# A pattern class whose constructor needs an argument: a rule's class is made without any.
import torch


class ScaledRelu(torch.nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x):
        return torch.relu(x) * self.scale


def relu_only(x):
    return torch.relu(x)


RULES = [(ScaledRelu, relu_only)]
