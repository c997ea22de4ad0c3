import torch


# Two lists nested 100,000 times compared: `==` went one C frame deeper a
# level and overflowed the stack (now an error at GRAFT_MAX_VALUE_DEPTH).
def forward(x):
    a = []
    b = []
    for i in range(100000):
        a = [a]
        b = [b]
    return x + (a == b)
