import torch


# The graph's output nested 100,000 lists deep: the node's argument and
# the code printer recursed once a level.
def forward(x):
    a = [x]
    for i in range(100000):
        a = [a]
    return a
