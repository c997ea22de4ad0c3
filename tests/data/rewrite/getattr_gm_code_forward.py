# graft-args: --pattern AddBias --entry forward
import torch


def forward(self, x):
    linear = self.fc(x);  x = None
    bias = self.fc.bias
    add = linear + bias;  linear = None
    relu = add.relu();  add = None
    add_1 = relu + 1;  relu = None
    return add_1


class AddBias(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(3, 3)

    def forward(self, x):
        return (x + self.fc.bias).relu()


def replacement(x):
    return x.relu()
