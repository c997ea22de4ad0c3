import torch


# zip() and enumerate() read the list as it stands at each step, and the
# loop appends to it at every step: torch.fx runs it forever.
def forward(x):
    xs = [0]
    for i, y in enumerate(xs):
        xs.append(y + 1)
    return x + xs[-1]
