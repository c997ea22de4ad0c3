import torch


# A list nested 100,000 times: printing it goes one level deeper at each
# (Python: RecursionError; Graft's walks overflowed the stack).
def forward(x):
    a = []
    for i in range(100000):
        a = [a]
    return x + len(str(a))
