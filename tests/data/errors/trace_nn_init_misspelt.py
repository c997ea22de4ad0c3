import torch
import torch.nn as nn


class M(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        # torch.nn.init has no he_normal_ (kaiming_normal_ is its name):
        # torch's AttributeError (Graft once traced on, as if nothing).
        nn.init.he_normal_(self.fc.weight)

    def forward(self, x):
        return self.fc(x)
