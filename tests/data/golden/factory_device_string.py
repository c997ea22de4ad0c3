import torch


# A factory's device string is parsed as torch parses it: torch.ones(2,
# device="") is torch's RuntimeError (Graft made the tensor), and so are
# a malformed index, a space and an unknown device type (each torch
# lists its own).
def forward(x):
    out = []
    for d in ("", "cpu:01", "gpu", "cpu:0", "meta", "cp u"):
        try:
            torch.ones(2, device=d)
            out.append("ok")
        except RuntimeError as e:
            out.append(str(e))
    return x + torch.zeros(1, device="cpu"), out
