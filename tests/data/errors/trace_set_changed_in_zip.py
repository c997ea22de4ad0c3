import torch


# zip() calls its first iterator's next first: the set's fails once the
# body grew the set (Graft went on).
def forward(x):
    s = {1, 2}
    for v, n in zip(s, [1, 2, 3]):
        s.add(v + 10)
    return x
