import torch


class M(torch.nn.Module):
    def forward(self, x):
        # Tensor.is_ort is a data attribute of torch 1.13.1 that torch 2.6 no
        # longer has: 2.6 raises AttributeError; 1.13.1 reads False, a value
        # Graft does not model, so it refuses (never taking it for a method).
        return x + (1 if torch.ones(2).is_ort else 2)
