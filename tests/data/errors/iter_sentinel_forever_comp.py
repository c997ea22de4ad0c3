import torch


# A comprehension over an iter(callable, sentinel) that never ends, each
# step a node.
def forward(x):
    queue = [0, 1]
    ys = [x.relu() + queue.append(i) for i in iter(queue.pop, 0)]
    return ys[0]
