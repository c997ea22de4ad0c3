# at: mul
import torch


def forward(x):
    return x * 3


def pattern(a):
    return a * 2
