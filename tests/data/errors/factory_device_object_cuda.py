import torch


# torch.device("cuda") is a device, but a tensor made on it is torch's
# AssertionError (Graft made a constant).
def forward(x):
    return x + torch.zeros(2, device=torch.device("cuda"))
