import torch


# A namespace torch has no operators in: torch.ops.M.add is torch's
# AttributeError (Graft printed the call).
def forward(x, y):
    return torch.ops.M.add.Tensor(x, y)
