import torch


# Two lists nested 100,000 times ordered with `<`: the comparison went one
# C frame deeper a level.
def forward(x):
    a = [1]
    b = [2]
    for i in range(100000):
        a = [a]
        b = [b]
    return x + (a < b)
