import torch


class M(torch.nn.Module):
    def forward(self, x):
        # A made-up attribute of a constant tensor, read and not called: torch's
        # AttributeError (Graft once read it as a bound method, which is true).
        return x + (1 if torch.ones(2, 3).sum(0).made_up else 2)
