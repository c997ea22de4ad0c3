import torch


# torch.ops makes a namespace of any name, but one torch has no operators
# in has none: its every operator is an AttributeError (Graft printed
# torch.ops.M.add.Tensor(...)).  torch.ops's own attributes are no
# namespaces.
def forward(x):
    try:
        op = torch.ops.M.add
    except AttributeError as e:
        x = x + len(str(e))
        text = str(e)
    return x, text, hasattr(torch.ops.mymodels, "relu"), hasattr(torch.ops.prims, "__name__")
