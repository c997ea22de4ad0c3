import torch


# enumerate() and zip() go through the dict's own iterator: its next step
# fails once the body changed the dict's size (Graft went on).
def forward(x):
    d = {'a': 1, 'b': 2}
    for i, k in enumerate(d):
        d['c' + str(i)] = 3
    return x
