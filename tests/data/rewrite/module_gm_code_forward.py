# graft-args: --pattern BnRelu --entry forward
import torch


def forward(self, x):
    conv1 = self.conv1(x);  x = None
    bn1 = self.bn1(conv1);  conv1 = None
    relu = self.relu(bn1);  bn1 = None
    conv2 = self.conv2(relu);  relu = None
    bn2 = self.bn2(conv2);  conv2 = None
    relu_1 = self.relu(bn2);  bn2 = None
    return relu_1


class BnRelu(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.bn1 = torch.nn.BatchNorm2d(3)
        self.relu = torch.nn.ReLU()

    def forward(self, x):
        return self.relu(self.bn1(x))


def replacement(x):
    return torch.relu(x)
