import torch


class M(torch.nn.Module):
    def forward(self, x):
        # torch.Tensor has no method foobar: torch's AttributeError where
        # the attribute is read (Graft once took any name for a method).
        y = torch.ones(2).foobar()
        return x + y
