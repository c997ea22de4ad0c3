# at: add
import torch


def forward(x, y):
    return x + y


def pattern(a):
    return a + a
