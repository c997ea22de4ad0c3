import torch
import torch.nn as nn


# A for loop or a comprehension over a list reads the list as it is at each
# step, as Python's list iterator does: a worklist its own body appends to
# runs over the new items too, and taking an item out skips the next.
class M(nn.Module):
    def forward(self, x):
        work = [1, 2]
        for n in work:
            x = x + n
            if n < 5:
                work.append(n + 2)
        ys = [x]
        for y in ys:
            if len(ys) < 4:
                ys.append(y.relu())
        skip = [10, 20, 30, 40]
        for s in skip:
            skip.pop(0)
            x = x * s
        more = [3]
        zs = [more.append(m + 1) or m for m in more if m < 6]
        return x, ys, zs, len(work), skip
