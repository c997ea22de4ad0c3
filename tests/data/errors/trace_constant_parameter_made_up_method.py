import torch


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        # An nn.Parameter not yet registered, in __init__: its own class name
        # in torch's message.
        self.w = torch.nn.Parameter(torch.ones(2)).made_up()

    def forward(self, x):
        return x + self.w
