import torch


# The loop appends to the list it goes through, at every step: torch.fx
# runs it forever.
def forward(x):
    xs = [x]
    for y in xs:
        xs.append(y.relu())
    return xs[-1]
