import torch
import torch.nn as nn


def scale(t, k=2):
    return t * k


def gate(t):
    return torch.sigmoid(t) * t


class HelperMethods(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def project(self, x):
        return self.fc(x) + 1

    def forward(self, x):
        y = self.project(x)
        y = scale(y, k=3)
        return gate(y) + self.project(y)
