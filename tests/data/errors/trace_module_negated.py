import torch.nn as nn


class Residual(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):
        # the module, not its call: a Linear has no __neg__
        return x - (-self.lin)
