import torch
import torch.nn as nn

calls = 0
scale = 2


def bump():
    global calls
    calls += 1
    return calls


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def count_steps(self, x):
        count = 0
        outs = []

        def step(t):
            nonlocal count
            count += 1
            outs.append(t * count)
            return t.relu()

        y = step(step(x))
        return y, outs[0] + outs[1], count

    def forward(self, x):
        global scale
        scale = scale + bump()
        y, z, n = self.count_steps(self.lin(x))

        def outer():
            total = 1

            def inner():
                nonlocal total
                total = total * 5
                return total

            inner()
            inner()
            return total

        return y * scale + z * n + outer() + calls
